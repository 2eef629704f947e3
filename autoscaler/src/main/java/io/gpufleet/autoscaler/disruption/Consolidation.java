package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.DisruptionReason;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodePool;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * What multi- and single-node consolidation share ({@code K:pkg/controllers/disruption/consolidation.go}):
 * the nodes they consider, the order they try them in, and the check after the validation delay.
 */
final class Consolidation {

  /**
   * Nodes of NodePools that consolidate more than empty nodes, not empty (emptiness takes those),
   * and past {@code consolidateAfter}. One instance, so both methods' candidates are gathered once.
   */
  static final NodeFacts.Filter FILTER = (f, now) ->
      f.pool.disruption().consolidationPolicy() != ConsolidationPolicy.WHEN_EMPTY && !f.empty
          && f.consolidatableBy(now);

  private Consolidation() {}

  /** A candidate with what {@link #sorted} orders it by. */
  private record Ranked(Candidate candidate, double ratio, String name) {}

  private static final Comparator<Ranked> RANK = (a, b) -> {
    int byRatio = Double.compare(b.ratio(), a.ratio());
    return byRatio != 0 ? byRatio : a.name().compareTo(b.name());
  };

  /**
   * Why the NodePool's settings keep consolidation off its non-empty nodes, in the words of
   * consolidation's {@code ShouldDisrupt} ({@code K:pkg/controllers/disruption/consolidation.go}):
   * {@code consolidateAfter: Never} first, then a policy other than WhenEmptyOrUnderutilized.
   */
  static Optional<String> disabledBy(NodePool pool) {
    if (pool.disruption().consolidateAfter().isEmpty()) {
      return Optional.of("NodePool \"" + pool.name() + "\" has consolidation disabled");
    }
    if (pool.disruption().consolidationPolicy() != ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED) {
      return Optional.of("NodePool \"" + pool.name() + "\" has non-empty consolidation disabled");
    }
    return Optional.empty();
  }

  /**
   * The first {@code limit} candidates of {@code sorted} (as {@link #sorted} orders them) within the budgets for
   * {@code Underutilized}, as {@link Candidates#withinBudgets} takes them, and whether any of all it would take
   * is of a Balanced NodePool ({@link BalancedScoring#forPoll}).
   */
  record Budgeted(List<Candidate> first, boolean balanced) {}

  /**
   * {@link Budgeted} without taking every candidate: multi-node consolidation tries no more than a batch.
   * A NodePool is Balanced or not for all its candidates, and its first candidate is taken when its budget
   * allows any, so whether one it would take is Balanced is whether a Balanced NodePool with budget has a
   * candidate.
   */
  static Budgeted withinBudgets(List<Candidate> sorted, ClusterView view, DisruptionSimulation simulation,
      int limit) {
    return withinBudgets(sorted, () -> simulation.budgets(view, DisruptionReason.UNDERUTILIZED), limit);
  }

  /** As above, the budgets ({@link DisruptionBudgets#allowed}) read of {@code allowedNow} only when there is a candidate. */
  static Budgeted withinBudgets(List<Candidate> sorted, Supplier<Map<String, Integer>> allowedNow, int limit) {
    if (sorted.isEmpty()) {
      return new Budgeted(List.of(), false); // no budget to read: most polls of a quiet cluster
    }
    Map<String, Integer> budgets = allowedNow.get();
    boolean balanced = false;
    for (int i = 0; i < sorted.size() && !balanced; i++) {
      Candidate c = sorted.get(i);
      balanced = BalancedScoring.balanced(c) && budgets.getOrDefault(c.pool().name(), 0) > 0;
    }
    return new Budgeted(Candidates.withinBudgets(sorted, () -> budgets, limit), balanced);
  }

  /**
   * {@link #sorted}'s order of a list of candidates that changes by a few at a time, kept as they come
   * and go: each costs a binary search and a shift of the array, not a sort of every candidate. It holds
   * only while no two candidates rank alike, when the order is the only one {@link #sorted} can give
   * whatever the list's own order; a candidate that ranks as one already there (or a removal of one
   * not there) leaves it {@link #broken}, and the reader sorts afresh. A shortcut of the twin's, not a
   * step of Karpenter's (ConsolidationOrderTest).
   */
  static final class Ranking {
    private Ranked[] items;
    private int size;
    private boolean broken;
    /** {@link #list}'s answer until the next change; null when to be made. */
    private List<Candidate> out;

    /** A ranking of {@code sorted}, a list in {@link #sorted}'s order. */
    Ranking(List<Candidate> sorted) {
      items = new Ranked[Math.max(16, sorted.size() + sorted.size() / 4)];
      for (Candidate c : sorted) {
        Ranked r = ranked(c);
        if (size > 0 && RANK.compare(items[size - 1], r) >= 0) {
          broken = true;
          return;
        }
        items[size++] = r;
      }
    }

    /** Whether the ranking no longer follows its candidates: the reader sorts them afresh. */
    boolean broken() {
      return broken;
    }

    void add(Candidate c) {
      if (broken) {
        return;
      }
      Ranked r = ranked(c);
      int i = search(r);
      if (i >= 0) {
        broken = true; // two rank alike: their order is the list's, which this does not know
        return;
      }
      i = -i - 1;
      if (size == items.length) {
        items = Arrays.copyOf(items, size * 2);
      }
      System.arraycopy(items, i, items, i + 1, size - i);
      items[i] = r;
      size++;
      out = null;
    }

    void remove(Candidate c) {
      if (broken) {
        return;
      }
      int i = search(ranked(c));
      if (i < 0 || items[i].candidate() != c) {
        broken = true;
        return;
      }
      System.arraycopy(items, i + 1, items, i, size - i - 1);
      items[--size] = null;
      out = null;
    }

    /** The candidates in {@link #sorted}'s order; not to be asked while {@link #broken}. */
    List<Candidate> list() {
      if (out == null) {
        Candidate[] a = new Candidate[size];
        for (int i = 0; i < size; i++) {
          a[i] = items[i].candidate();
        }
        out = Collections.unmodifiableList(Arrays.asList(a));
      }
      return out;
    }

    private int search(Ranked key) {
      return Arrays.binarySearch(items, 0, size, key, RANK);
    }
  }

  private static Ranked ranked(Candidate c) {
    return new Ranked(c, c.price() / c.disruptionCost(), c.name());
  }

  /** The candidates most worth removing first, budgets not applied. */
  static List<Candidate> sorted(List<Candidate> candidates) {
    // Price per unit of disruption, highest first (reference §1.5), then name for a stable order;
    // each candidate's ratio and name worked out once, not at every comparison.
    List<Ranked> keyed = new ArrayList<>(candidates.size());
    for (Candidate c : candidates) {
      keyed.add(ranked(c));
    }
    keyed.sort(RANK);
    List<Candidate> out = new ArrayList<>(keyed.size());
    for (Ranked r : keyed) {
      out.add(r.candidate());
    }
    return out;
  }

  /**
   * Still consolidatable and not emptied meanwhile, and the simulation still reaches the same kind
   * of decision (delete or replace); the replacement is planned afresh.
   */
  static DisruptionController.Validation validate(DisruptionCommand command, List<Candidate> candidates,
      ClusterView view, RandomGenerator random, DisruptionSimulation simulation) {
    for (Candidate c : candidates) {
      if (c.isEmpty() || !Candidates.consolidatable(c.node(), c.pool(), view.now())) {
        return new DisruptionController.Validation.Abandon(c.name() + " is no longer consolidatable");
      }
    }
    Optional<List<NodeClaim>> r = simulation.simulate(candidates, view, true, random);
    if (r.isEmpty() || r.get().isEmpty() != command.isDelete()) {
      return new DisruptionController.Validation.Abandon("the consolidation decision changed");
    }
    return new DisruptionController.Validation.Execute(DisruptionSimulation.withReplacements(command, r.get()));
  }
}
