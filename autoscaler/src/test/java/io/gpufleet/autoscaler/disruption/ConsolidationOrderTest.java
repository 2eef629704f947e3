package io.gpufleet.autoscaler.disruption;

import static io.gpufleet.autoscaler.disruption.DisruptionViews.T0;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.node;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.pool;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.NodePool;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Consolidation#sorted}, which works out each candidate's ratio and name once, orders as the
 * comparator that works them out at every comparison (price per unit of disruption, highest first,
 * then name); and {@link DisruptionSimulation#sorted} gives that order for the list it was given, asked
 * again or not. Seeded candidate lists with many equal ratios, so names often decide.
 */
class ConsolidationOrderTest {

  private static final Comparator<Candidate> BY_COMPARATOR =
      Comparator.comparingDouble((Candidate c) -> c.price() / c.disruptionCost()).reversed()
          .thenComparing(Candidate::name);

  @Test
  void keyedSortOrdersAsTheComparator() {
    NodePool pool = pool();
    DisruptionSimulation simulation = DisruptionViews.simulation(pool);
    SplittableRandom r = new SplittableRandom(11);
    int ties = 0;
    for (int trial = 0; trial < 200; trial++) {
      List<Candidate> candidates = new ArrayList<>();
      for (int i = r.nextInt(40); i > 0; i--) {
        StateNode n = node(pool, "m5.large", r.nextInt(1_000_000), T0);
        double price = List.of(0.096, 0.192, 0.5, 1.0).get(r.nextInt(4));
        double cost = 1 + r.nextInt(3);
        candidates.add(new Candidate(n, n.claim().orElseThrow(), pool, List.of(), price, cost));
      }
      List<Candidate> list = List.copyOf(candidates);
      List<Candidate> want = new ArrayList<>(list);
      want.sort(BY_COMPARATOR);
      assertThat(Consolidation.sorted(list)).as("trial %d", trial).isEqualTo(want);
      assertThat(simulation.sorted(list)).as("trial %d", trial).isEqualTo(want);
      assertThat(simulation.sorted(list)).as("trial %d, asked again", trial).isEqualTo(want);
      for (int i = 1; i < want.size(); i++) {
        ties += BY_COMPARATOR.compare(want.get(i - 1), want.get(i)) != 0
            && want.get(i - 1).price() / want.get(i - 1).disruptionCost()
            == want.get(i).price() / want.get(i).disruptionCost() ? 1 : 0;
      }
    }
    assertThat(ties).as("neighbours ordered by name alone").isGreaterThan(500);
  }

  /**
   * A ranking followed as candidates come and go ({@link Consolidation.Ranking}, as the candidate memo
   * keeps it) orders as a fresh sort: over seeded sequences of lists in which candidates go, come (some
   * of them again, some sharing a name, so two rank alike and it breaks) and change places in the list;
   * a broken ranking is made afresh from a sort, as the memo does.
   */
  @Test
  void aFollowedRankingIsAFreshOne() {
    NodePool pool = pool();
    int followed = 0;
    int broken = 0;
    for (long seed = 1; seed <= 40; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      List<Candidate> gone = new ArrayList<>();
      List<Candidate> list = new ArrayList<>();
      Consolidation.Ranking ranking = new Consolidation.Ranking(List.of());
      for (int step = 0; step < 60; step++) {
        for (int i = r.nextInt(4); i > 0 && !list.isEmpty(); i--) {
          Candidate c = list.remove(r.nextInt(list.size()));
          gone.add(c);
          ranking.remove(c);
        }
        for (int i = r.nextInt(5); i > 0; i--) {
          Candidate c;
          if (!gone.isEmpty() && r.nextInt(4) == 0) {
            c = gone.remove(r.nextInt(gone.size()));
          } else {
            StateNode n = node(pool, "m5.large", r.nextInt(3_000), T0);
            double price = List.of(0.096, 0.192, 0.5, 1.0).get(r.nextInt(4));
            c = new Candidate(n, n.claim().orElseThrow(), pool, List.of(), price, 1 + r.nextInt(3));
          }
          list.add(r.nextInt(list.size() + 1), c);
          ranking.add(c);
        }
        if (r.nextInt(5) == 0 && list.size() > 1) { // two change places
          int i = r.nextInt(list.size());
          int j = r.nextInt(list.size());
          Candidate c = list.get(i);
          list.set(i, list.get(j));
          list.set(j, c);
        }
        List<Candidate> want = Consolidation.sorted(List.copyOf(list));
        String at = "seed " + seed + " step " + step;
        if (ranking.broken()) {
          broken++;
          ranking = new Consolidation.Ranking(want);
          continue;
        }
        assertThat(ranking.list()).as(at).isEqualTo(want);
        followed++;
      }
    }
    assertThat(followed).isGreaterThan(1500);
    assertThat(broken).isGreaterThan(10);
  }

  /**
   * The budgets taken for multi-node consolidation up to its limit ({@link Consolidation#withinBudgets(List,
   * java.util.function.Supplier, int)}) are the first of every candidate {@link Candidates#withinBudgets}
   * takes, and it finds a Balanced NodePool among those as {@link BalancedScoring#forPoll} does: over seeded
   * lists of candidates of NodePools some Balanced, with budgets none, some, used up or unlimited.
   */
  @Test
  void budgetsTakenUpToALimitAreTheFirstOfAllTaken() {
    NodePool base = pool();
    int balancedBeyond = 0;
    for (long seed = 1; seed <= 400; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      List<NodePool> pools = new ArrayList<>();
      Map<String, Integer> allowed = new HashMap<>();
      for (int k = 0; k < 4; k++) {
        ConsolidationPolicy policy = r.nextInt(3) == 0 ? ConsolidationPolicy.BALANCED
            : ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED;
        NodePool p = new NodePool("p" + k, base.template(), base.disruption().withPolicy(policy), base.limits(),
            base.weight());
        pools.add(p);
        switch (r.nextInt(4)) {
          case 0 -> { } // no budget named
          case 1 -> allowed.put(p.name(), 0);
          case 2 -> allowed.put(p.name(), r.nextInt(1, 6));
          default -> allowed.put(p.name(), DisruptionBudgets.UNLIMITED);
        }
      }
      List<Candidate> list = new ArrayList<>();
      for (int i = r.nextInt(30); i > 0; i--) {
        NodePool p = pools.get(r.nextInt(pools.size()));
        StateNode n = node(base, "m5.large", r.nextInt(1_000_000), T0);
        list.add(new Candidate(n, n.claim().orElseThrow(), p, List.of(), 0.1, 1));
      }
      int limit = r.nextInt(1, 12);
      List<Candidate> all = Candidates.withinBudgets(list, () -> allowed);
      Consolidation.Budgeted got = Consolidation.withinBudgets(list, () -> allowed, limit);
      String at = "seed " + seed;
      assertThat(got.first()).as(at).isEqualTo(all.subList(0, Math.min(limit, all.size())));
      assertThat(got.balanced()).as(at).isEqualTo(all.stream().anyMatch(BalancedScoring::balanced)); // as forPoll
      balancedBeyond += got.balanced() && got.first().stream().noneMatch(BalancedScoring::balanced) ? 1 : 0;
    }
    assertThat(balancedBeyond).as("a Balanced candidate found past the limit only").isGreaterThan(10);
  }
}
