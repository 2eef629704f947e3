package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.DisruptionReason;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodePool;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.Optional;
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

  /** The candidates most worth removing first, cut to the budgets for {@code Underutilized}. */
  static List<Candidate> ranked(List<Candidate> candidates, ClusterView view) {
    return Candidates.withinBudgets(sorted(candidates), view, DisruptionReason.UNDERUTILIZED);
  }

  /** {@code sorted} (as {@link #sorted} orders them) cut to the budgets for {@code Underutilized}. */
  static List<Candidate> withinBudgets(List<Candidate> sorted, ClusterView view, DisruptionSimulation simulation) {
    return Candidates.withinBudgets(sorted, () -> simulation.budgets(view, DisruptionReason.UNDERUTILIZED));
  }

  /**
   * {@link #sorted}, from {@code previous} (a ranking of {@link #sorted} or of this method, or null): the
   * candidates still there keep their order, a candidate being an immutable value, and the new ones are
   * ranked and merged in. When no two candidates rank alike the order is the only one {@link #sorted}
   * can give; otherwise (or when a candidate is listed twice) they are sorted afresh. Most polls follow
   * a change of a few nodes, so most of the ranking is the last one's.
   */
  static List<Candidate> sorted(List<Candidate> candidates, List<Candidate> previous) {
    if (previous == null || previous.isEmpty()) {
      return sorted(candidates);
    }
    Set<Candidate> now = Collections.newSetFromMap(new IdentityHashMap<>(candidates.size()));
    now.addAll(candidates);
    if (now.size() != candidates.size()) {
      return sorted(candidates);
    }
    List<Candidate> kept = new ArrayList<>(candidates.size());
    for (Candidate c : previous) {
      if (now.remove(c)) {
        kept.add(c);
      }
    }
    List<Ranked> fresh = new ArrayList<>(now.size());
    for (Candidate c : candidates) {
      if (now.contains(c)) {
        fresh.add(ranked(c));
      }
    }
    fresh.sort(RANK);
    List<Candidate> out = new ArrayList<>(candidates.size());
    Ranked last = null;
    int j = 0;
    for (Candidate c : kept) {
      Ranked k = ranked(c);
      while (j < fresh.size() && RANK.compare(fresh.get(j), k) < 0) {
        last = append(out, last, fresh.get(j++));
        if (last == null) {
          return sorted(candidates);
        }
      }
      last = append(out, last, k);
      if (last == null) {
        return sorted(candidates);
      }
    }
    while (j < fresh.size()) {
      last = append(out, last, fresh.get(j++));
      if (last == null) {
        return sorted(candidates);
      }
    }
    return out;
  }

  /** Adds {@code r} after {@code last}: {@code r}, or null when it does not rank strictly after. */
  private static Ranked append(List<Candidate> out, Ranked last, Ranked r) {
    if (last != null && RANK.compare(last, r) >= 0) {
      return null;
    }
    out.add(r.candidate());
    return r;
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
