package io.gpufleet.autoscaler.disruption;

import static io.gpufleet.autoscaler.disruption.DisruptionViews.CATALOG;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.NodeLog;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.Budget;
import io.gpufleet.model.karpenter.DisruptionReason;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.workload.IntOrPercent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The nodes per NodePool followed along the view builder's splices ({@link NodeLog}) give the budgets a
 * count of every node gives ({@link DisruptionBudgets#allowed}): over seeded sequences of views whose
 * lists change by random splices (nodes of two NodePools and of none coming, going, deleting or being
 * disrupted, a group put back in another order, a state node listed twice), with chains that restart
 * and views the counts are not brought to, under percentage budgets that make the counts matter.
 */
class PoolCountsTest {

  @Test
  void followedCountsGiveTheBudgetsOfACountOfEveryNode() {
    List<NodePool> pools = List.of(pool("general", 30), pool("other", 50));
    long compared = 0;
    for (long seed = 1; seed <= 40; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      PoolCounts kept = new PoolCounts();
      List<StateNode> nodes = new ArrayList<>();
      int made = 0;
      for (int i = r.nextInt(12); i > 0; i--) {
        nodes.add(node(r, pools, made++));
      }
      NodeLog log = NodeLog.start();
      for (int step = 0; step < 80; step++) {
        if (r.nextInt(12) == 0) { // a list built afresh: a new chain, maybe in another order
          Collections.shuffle(nodes, new Random(r.nextLong()));
          log = NodeLog.start();
        } else {
          for (int k = r.nextInt(4); k > 0; k--) {
            int index = made++;
            log = RandomSplices.splice(r, nodes, log, null, range -> {
              List<StateNode> out = new ArrayList<>();
              for (int m = RandomSplices.count(r, range); m > 0; m--) {
                out.add(!nodes.isEmpty() && r.nextInt(15) == 0 ? nodes.get(r.nextInt(nodes.size()))
                    : node(r, pools, index * 4 + m + 100_000));
              }
              return out;
            });
          }
        }
        ClusterView view = new ClusterView(T0, pools, CATALOG, OfferingAvailability.ALL, List.copyOf(nodes),
            List.of(), List.of(), PdbIndex.NONE, Map.of(), log);
        if (r.nextInt(4) == 0) {
          continue; // a view the counts are never brought to: the next one follows from further back
        }
        for (DisruptionReason reason : DisruptionReason.values()) {
          assertThat(kept.allowed(view, reason)).as("seed %d step %d %s", seed, step, reason)
              .isEqualTo(DisruptionBudgets.allowed(view, reason));
          compared++;
        }
      }
    }
    assertThat(compared).isGreaterThan(5_000);
  }

  private static NodePool pool(String name, int percent) {
    NodePool p = NodePool.of(name, DisruptionViews.pool().template());
    return p.withDisruption(p.disruption().withBudgets(List.of(
        new Budget(new IntOrPercent.Percent(percent), Optional.empty(), Optional.empty(), Set.of()))));
  }

  /** A node of one of the NodePools, now and then one with no NodeClaim, deleting, or being disrupted. */
  private static StateNode node(SplittableRandom r, List<NodePool> pools, int index) {
    StateNode n = DisruptionViews.node(pools.get(r.nextInt(pools.size())), "m5.large", 1000 + index);
    return switch (r.nextInt(8)) {
      case 0 -> new StateNode(n.name(), Optional.empty(), n.node(), n.pods(), n.terminating(), n.lastPodEvent(),
          false);
      case 1 -> new StateNode(n.name(), n.claim().map(c -> c.withDeletionRequested(T0.plus(Duration.ofMinutes(1)))),
          n.node(), n.pods(), n.terminating(), n.lastPodEvent(), r.nextBoolean());
      case 2 -> new StateNode(n.name(), n.claim(), n.node(), n.pods(), n.terminating(), n.lastPodEvent(), true);
      default -> n;
    };
  }

}
