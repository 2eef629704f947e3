package io.gpufleet.autoscaler.disruption;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.testing.Fixtures;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.karpenter.Budget;
import io.gpufleet.model.karpenter.DisruptionReason;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.workload.IntOrPercent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DisruptionBudgetsTest {

  static final Instant T = Instant.parse("2026-01-05T00:00:00Z");

  static StateNode claimNode(NodePool pool, int i, boolean deleting) {
    var type = InstanceCatalog.builtIn().require("g6.xlarge");
    NodeClaim c = io.gpufleet.autoscaler.provisioning.Launcher.nodeClaim(pool, type, type.offerings().getFirst(),
        io.gpufleet.model.resource.ResourceList.EMPTY, T, new SplittableRandom(i));
    if (deleting) {
      c = c.withDeletionRequested(T);
    }
    return new StateNode(c.name(), Optional.of(c), Optional.empty(), List.of(), Set.of(), T, false);
  }

  @Test
  void percentagesRoundUpAndDeletingNodesCount() {
    NodePool pool = Fixtures.gpuPool("gpu", "g6");
    List<StateNode> nodes = new ArrayList<>();
    for (int i = 0; i < 11; i++) {
      nodes.add(claimNode(pool, i, i == 0));
    }
    ClusterView view = new ClusterView(T, List.of(pool), InstanceCatalog.builtIn(), OfferingAvailability.ALL, nodes,
        List.of(), List.of(), PdbIndex.NONE);
    // 10% of 11 rounds up to 2, one is already deleting.
    assertThat(DisruptionBudgets.allowed(view, DisruptionReason.UNDERUTILIZED)).containsEntry("gpu", 1);
    NodePool strict = pool.withDisruption(pool.disruption().withBudgets(List.of(Budget.DEFAULT,
        new Budget(new IntOrPercent.Count(0), Optional.empty(), Optional.empty(), Set.of(DisruptionReason.DRIFTED)))));
    view = new ClusterView(T, List.of(strict), InstanceCatalog.builtIn(), OfferingAvailability.ALL, nodes, List.of(),
        List.of(), PdbIndex.NONE);
    assertThat(DisruptionBudgets.allowed(view, DisruptionReason.DRIFTED)).containsEntry("gpu", 0);
    assertThat(DisruptionBudgets.allowed(view, DisruptionReason.EMPTY)).containsEntry("gpu", 1);
  }
}
