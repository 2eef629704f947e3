package io.gpufleet.autoscaler.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings.GpuSizing;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.testing.Fixtures;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.ResourceList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A provisioner that keeps each unchanged state node's offer between rounds plans as one that works
 * every node out afresh: seeded sequences of rounds where launched claims join (initialised or in
 * flight), pods land on existing nodes (a new state node) and nodes go, the rest kept as they were.
 */
class NodeBasesTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void reusedOffersPlanAsFreshOnes() {
    InstanceCatalog catalog = InstanceCatalog.builtIn();
    NodePool pool = ProvisionerTest.onDemand(Fixtures.gpuPool("gpu", "g5", "g6"));
    ProvisioningModel model = ProvisioningModel.of(List.of(pool), catalog, List.of(), NvidiaDevicePlugin.DEFAULTS,
        GpuSizing.PHYSICAL);
    for (long seed = 1; seed <= 20; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      Provisioner kept = new Provisioner(model);
      List<StateNode> nodes = new ArrayList<>();
      int pod = 0;
      for (int round = 0; round < 12; round++) {
        List<Pod> pending = new ArrayList<>();
        for (int i = r.nextInt(6); i > 0; i--) {
          pending.add(Fixtures.gpuPod("p" + pod++, 1 + r.nextInt(4)));
        }
        ProvisioningPlan a = kept.solve(pending, nodes, List.of(), OfferingAvailability.ALL, T0);
        ProvisioningPlan b = new Provisioner(model).solve(pending, nodes, List.of(), OfferingAvailability.ALL, T0);
        assertThat(a.onExisting()).as("seed %d round %d", seed, round).isEqualTo(b.onExisting());
        assertThat(a.errors()).as("seed %d round %d", seed, round).isEqualTo(b.errors());
        assertThat(a.newClaims()).as("seed %d round %d", seed, round).isEqualTo(b.newClaims());
        // The cluster moves on: pods placed on existing nodes land there (new state nodes), some
        // planned claims come up, some nodes go; every other node stays the same object.
        for (Map.Entry<String, String> e : a.onExisting().entrySet()) {
          Pod p = pending.stream().filter(x -> x.key().equals(e.getKey())).findFirst().orElseThrow();
          for (int i = 0; i < nodes.size(); i++) {
            StateNode n = nodes.get(i);
            if (n.name().equals(e.getValue())) {
              List<Pod> pods = new ArrayList<>(n.pods());
              pods.add(p);
              nodes.set(i, new StateNode(n.name(), n.claim(), n.node(), pods, n.terminating(), T0, false, Map.of()));
            }
          }
        }
        for (PlannedClaim c : a.newClaims()) {
          if (r.nextInt(3) > 0) {
            nodes.add(node(pool, c.instanceTypes().getFirst(), c.pods(), r.nextBoolean(), r));
          }
        }
        if (!nodes.isEmpty() && r.nextInt(4) == 0) {
          nodes.remove(r.nextInt(nodes.size()));
        }
      }
    }
  }

  private static StateNode node(NodePool pool, InstanceType t, List<Pod> pods, boolean initialised,
      SplittableRandom r) {
    Offering o = t.offerings().stream().filter(x -> x.capacityType() == CapacityType.ON_DEMAND).findFirst()
        .orElseThrow();
    NodeClaim c = Launcher.nodeClaim(pool, t, o, ResourceList.EMPTY, T0, r).withLaunched(T0);
    if (!initialised) {
      return new StateNode(c.name(), java.util.Optional.of(c), java.util.Optional.empty(), pods, Set.of(), T0, false,
          Map.of());
    }
    c = c.withRegistered(T0, c.name()).withInitialized(T0);
    return new StateNode(c.name(), java.util.Optional.of(c), java.util.Optional.of(Node.of(c.name(), c.labels(),
        List.of(), t.allocatable())), pods, Set.of(), T0, false, Map.of());
  }
}
