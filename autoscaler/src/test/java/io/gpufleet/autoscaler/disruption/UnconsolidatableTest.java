package io.gpufleet.autoscaler.disruption;

import static io.gpufleet.autoscaler.disruption.DisruptionViews.CATALOG;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.T0;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.budget;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.doNotDisrupt;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.node;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.pod;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.pool;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.view;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.gpu.Advertised;
import io.gpufleet.autoscaler.provisioning.Provisioner;
import io.gpufleet.autoscaler.provisioning.ProvisioningModel;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.testing.Fixtures;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.NodePool;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Why consolidation leaves a node: every node it could act on gets its reason, in Karpenter's words. */
class UnconsolidatableTest {

  static DisruptionController controller(NodePool pool) {
    return new DisruptionController(AutoscalerSettings.DEFAULTS, new Provisioner(ProvisioningModel.of(List.of(pool),
        CATALOG, List.of(), (labels, gpus) -> Advertised.NOTHING, AutoscalerSettings.GpuSizing.PHYSICAL)));
  }

  @Test
  void eachNodeConsolidationLeavesHasItsReason() {
    NodePool pool = pool();
    // The cheapest type that holds its pod: no cheaper replacement, and nowhere else to go.
    StateNode snug = node(pool, "m5.large", 1, Fixtures.cpuPod("snug", "1500m", "1Gi"));
    // Neither of the others has room for the 1.5-CPU pod beside its own 1-CPU one.
    StateNode pinned = node(pool, "m5.large", 2, doNotDisrupt(pod("pinned")));
    // Still inside consolidateAfter (10m): waiting, not refused, so not listed.
    StateNode fresh = node(pool, "m5.large", 3, T0.plus(Duration.ofMinutes(55)), pod("fresh"));
    ClusterView v = view(pool, List.of(snug, pinned, fresh));
    DisruptionController c = controller(pool);
    assertThat(c.poll(v, new SplittableRandom(7))).isEmpty();
    var why = c.unconsolidatable(v);
    assertThat(why).containsOnlyKeys(snug.claim().get().name(), pinned.claim().get().name());
    assertThat(why.get(snug.claim().get().name()))
        .isEqualTo(ConsolidationRefusal.unconsolidatable("Can't replace with a cheaper node"));
    // A pod's do-not-disrupt makes the node no candidate: NewCandidate's DisruptionBlocked event, in its words.
    assertThat(why.get(pinned.claim().get().name())).isEqualTo(ConsolidationRefusal.blocked(
        "Pod has \"karpenter.sh/do-not-disrupt\" annotation (Pod=default/pinned)"));
  }

  @Test
  void theBudgetIsSaid() {
    NodePool none = pool().withDisruption(pool().disruption().withBudgets(List.of(budget(0))));
    StateNode a = node(none, "m5.xlarge", 1, pod("a"));
    ClusterView v = view(none, List.of(a));
    assertThat(controller(none).unconsolidatable(v)).containsEntry(a.claim().get().name(),
        ConsolidationRefusal.unconsolidatable(
            "the NodePool's disruption budget for Underutilized allows no more disruptions now"));
  }

  /**
   * {@code K:pkg/controllers/disruption/consolidation.go} ShouldDisrupt: {@code NodePool %q has
   * non-empty consolidation disabled} for a policy other than WhenEmptyOrUnderutilized, and {@code
   * NodePool %q has consolidation disabled} when consolidateAfter is nil (Never), checked first.
   */
  @Test
  void aWhenEmptyOrNeverNodePoolSaysSoAsConsolidationsShouldDisruptDoes() {
    NodePool whenEmpty = pool(ConsolidationPolicy.WHEN_EMPTY);
    StateNode b = node(whenEmpty, "m5.xlarge", 1, pod("b"));
    // Even inside consolidateAfter: upstream publishes before it reads the Consolidatable condition.
    StateNode fresh = node(whenEmpty, "m5.xlarge", 2, T0.plus(Duration.ofMinutes(55)), pod("fresh"));
    // Empty: emptiness takes it once consolidateAfter has passed, so it is no refusal.
    StateNode empty = node(whenEmpty, "m5.xlarge", 3);
    assertThat(controller(whenEmpty).unconsolidatable(view(whenEmpty, List.of(b, fresh, empty))))
        .containsOnlyKeys(b.claim().get().name(), fresh.claim().get().name())
        .containsEntry(b.claim().get().name(),
            ConsolidationRefusal.unconsolidatable("NodePool \"general\" has non-empty consolidation disabled"));
    NodePool never = whenEmpty.withDisruption(whenEmpty.disruption().withConsolidateAfter(Optional.empty()));
    StateNode c = node(never, "m5.xlarge", 4, pod("c"));
    StateNode idle = node(never, "m5.xlarge", 5);
    assertThat(controller(never).unconsolidatable(view(never, List.of(c, idle))))
        .containsEntry(c.claim().get().name(),
            ConsolidationRefusal.unconsolidatable("NodePool \"general\" has consolidation disabled"))
        .containsEntry(idle.claim().get().name(),
            ConsolidationRefusal.unconsolidatable("NodePool \"general\" has consolidation disabled"));
    // A candidate's own block comes first: upstream never asks ShouldDisrupt of a node that is no candidate.
    StateNode pinned = node(whenEmpty, "m5.xlarge", 6, doNotDisrupt(pod("pinned")));
    assertThat(controller(whenEmpty).unconsolidatable(view(whenEmpty, List.of(pinned))))
        .containsEntry(pinned.claim().get().name(), ConsolidationRefusal.blocked(
            "Pod has \"karpenter.sh/do-not-disrupt\" annotation (Pod=default/pinned)"));
  }

  @Test
  void aNodeConsolidationWouldTakeIsNotListed() {
    NodePool pool = pool();
    // One 1-CPU pod on an m5.2xlarge: a cheaper m5.large would do, so it is no refusal.
    StateNode big = node(pool, "m5.2xlarge", 1, pod("b"));
    ClusterView v = view(pool, List.of(big));
    DisruptionController c = controller(pool);
    assertThat(c.poll(v, new SplittableRandom(7))).isPresent();
    assertThat(c.unconsolidatable(v)).isEmpty();
  }

  /**
   * After a poll over the same view the reasons of the single-node search are reused: they must be
   * what asking afresh gives, on 150 seeded clusters of m5 nodes with pods of 0.25 to 3.5 CPUs,
   * whether the poll found a command (and stopped early) or not.
   */
  @Test
  void afterAPollTheReasonsAreThoseAskedAfresh() {
    NodePool pool = pool();
    String[] types = {"m5.large", "m5.xlarge", "m5.2xlarge"};
    int quiet = 0;
    int refused = 0;
    for (long seed = 1; seed <= 150; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      List<StateNode> nodes = new java.util.ArrayList<>();
      for (int i = 0, count = 1 + r.nextInt(6); i < count; i++) {
        List<io.gpufleet.model.pod.Pod> pods = new java.util.ArrayList<>();
        for (int j = r.nextInt(4); j > 0; j--) {
          pods.add(Fixtures.cpuPod("p" + i + "-" + j, (250 * (1 + r.nextInt(14))) + "m", "1Gi"));
        }
        nodes.add(node(pool, types[r.nextInt(types.length)], 100 + i,
            pods.toArray(io.gpufleet.model.pod.Pod[]::new)));
      }
      ClusterView v = view(pool, nodes);
      DisruptionController polled = controller(pool);
      if (polled.poll(v, new SplittableRandom(seed)).isEmpty()) {
        quiet++;
      }
      var reused = polled.unconsolidatable(v);
      assertThat(reused).as("seed %d", seed).isEqualTo(controller(pool).unconsolidatable(v));
      refused += (int) reused.values().stream().filter(w -> w.reason().equals(ConsolidationRefusal.UNCONSOLIDATABLE))
          .count();
    }
    assertThat(quiet).isBetween(10, 140);
    assertThat(refused).isGreaterThan(50);
  }
}
