package io.gpufleet.autoscaler.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.provisioning.Launcher;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.ResourceList;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * One lifecycle controller that remembers drift verdicts answers as a new one does, reconcile after
 * reconcile, while the NodePool (template, requirements), the catalogue and the claims change at
 * random and sometimes change back to objects it has seen.
 */
class DriftMemoTest {

  private static final Instant T0 = Instant.parse("2026-01-05T00:00:00Z");

  @Test
  void rememberedDriftEqualsDriftWorkedOutAgain() {
    SplittableRandom r = new SplittableRandom(20261206L);
    InstanceCatalog full = InstanceCatalog.builtIn();
    InstanceCatalog noM5Large = withoutM5Large(full);
    NodePool base = onDemandM5();
    List<NodePool> pools = List.of(base,
        base.withTemplate(base.template().withLabels(Labels.of("team", "a"))), // another template hash
        base.withTemplate(base.template().withRequirements(List.of(
            NodePoolRequirement.in("karpenter.k8s.aws/instance-family", "m5"),
            NodePoolRequirement.in("karpenter.sh/capacity-type", "spot")))), // requirements the claims miss
        NodePool.of("general", base.template())); // equal to base, another object
    List<InstanceType> types = List.of(full.require("m5.large"), full.require("m5.xlarge"));
    NodeClaimLifecycle kept = new NodeClaimLifecycle(AutoscalerSettings.DEFAULTS);
    List<StateNode> nodes = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      nodes.add(node(base, types.get(i % 2), i));
    }
    // One list per pool, as a runtime hands the same list on until the pools change.
    List<List<NodePool>> poolLists = pools.stream().map(List::of).toList();
    int pool = 0;
    InstanceCatalog catalog = full;
    int drifts = 0;
    for (int step = 0; step < 400; step++) {
      switch (r.nextInt(4)) {
        case 0 -> pool = r.nextInt(pools.size());
        case 1 -> catalog = r.nextBoolean() ? full : noM5Large;
        case 2 -> {
          int i = r.nextInt(nodes.size());
          nodes.set(i, node(pools.get(r.nextInt(pools.size())), types.get(r.nextInt(2)), 100 + step));
        }
        default -> { }
      }
      ClusterView view = new ClusterView(T0.plus(Duration.ofMinutes(step)), poolLists.get(pool), catalog,
          OfferingAvailability.ALL, nodes, List.of(), List.of(), PdbIndex.NONE);
      var remembered = kept.reconcile(view, true, Map.of());
      var fresh = new NodeClaimLifecycle(AutoscalerSettings.DEFAULTS).reconcile(view, true, Map.of());
      assertThat(remembered).as("step %d", step).isEqualTo(fresh);
      drifts += fresh.size();
    }
    assertThat(drifts).isGreaterThan(100); // the steps drift claims, and stop drifting them
  }

  /** The catalogue without m5.large: claims of that type drift ({@code InstanceTypeNotFound}). */
  static InstanceCatalog withoutM5Large(InstanceCatalog full) {
    return new InstanceCatalog(full.types().stream().filter(t -> !t.name().equals("m5.large")).toList());
  }

  /** A NodePool of on-demand m5 instances. */
  static NodePool onDemandM5() {
    return NodePool.of("general", NodeClaimTemplate.of(
        NodePoolRequirement.in("karpenter.k8s.aws/instance-family", "m5"),
        NodePoolRequirement.in("karpenter.sh/capacity-type", "on-demand")));
  }

  private static StateNode node(NodePool pool, InstanceType type, int seed) {
    NodeClaim c = Launcher.nodeClaim(pool, type, type.offerings().stream()
            .filter(o -> o.capacityType().name().equals("ON_DEMAND")).findFirst().orElseThrow(),
        ResourceList.EMPTY, T0, new SplittableRandom(seed))
        .withLaunched(T0).withRegistered(T0, "n" + seed).withInitialized(T0);
    return new StateNode(c.name(), Optional.of(c), Optional.of(Node.of(c.name(), c.labels(), List.of(),
        type.allocatable())), List.of(), Set.of(), T0, false);
  }
}
