package io.gpufleet.autoscaler.disruption;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.autoscaler.provisioning.Launcher;
import io.gpufleet.autoscaler.provisioning.Provisioner;
import io.gpufleet.autoscaler.provisioning.ProvisioningModel;
import io.gpufleet.autoscaler.provisioning.ProvisioningPlan;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.testing.Fixtures;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.karpenter.Budget;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.workload.IntOrPercent;
import io.gpufleet.testing.property.Gen;
import io.gpufleet.testing.property.Property;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Over random fleets of initialised and booting nodes, with pods pending or not, the disruption
 * controller never disrupts a node whose pods only fit by landing on capacity that is not
 * initialised (Karpenter: {@code K:pkg/controllers/disruption/helpers.go} SimulateScheduling returns
 * an UninitializedNodeError for such pods). Checked apart from how the controller decides: placed
 * together with the pending pods, every pod of the command's candidates must land on a node that
 * stays and is initialised, or on one of the command's own replacements.
 */
class UninitializedCapacityProperties {

  static final Instant T0 = Instant.parse("2026-01-05T00:00:00Z");
  static final InstanceCatalog CATALOG = InstanceCatalog.builtIn();
  static final List<String> TYPES = List.of("m5.large", "m5.xlarge", "m5.2xlarge");
  static final NodePool POOL = pool();

  static NodePool pool() {
    NodePool p = NodePool.of("general", NodeClaimTemplate.of(
        NodePoolRequirement.in("karpenter.k8s.aws/instance-family", "m5"),
        NodePoolRequirement.in("karpenter.sh/capacity-type", "on-demand")));
    return p.withDisruption(p.disruption().withConsolidateAfter(Optional.of(Duration.ZERO))
        .withBudgets(List.of(Budget.nodes(new IntOrPercent.Percent(100)))));
  }

  /** One node of the fleet: its type, whether it finished initialising, and its pods' cpu in millicores. */
  record NodeSpec(String type, boolean initialised, List<Integer> podMillis) {}

  record Fleet(List<NodeSpec> nodes, List<Integer> pendingMillis) {}

  static Gen<Fleet> fleets() {
    Gen<List<Integer>> pods = Gen.ints(1, 15).map(i -> i * 100).list(0, 3);
    Gen<NodeSpec> node = Gen.combine(Gen.of(TYPES), Gen.of(true, true, false), pods,
        (t, init, p) -> new NodeSpec(t, init, init ? p : List.of()));
    return Gen.combine(node.list(1, 6), Gen.ints(1, 15).map(i -> i * 100).list(0, 3), Fleet::new);
  }

  @Test
  void noPodIsPlannedOntoCapacityThatIsNotInitialised() {
    Property.check(20261206L, 300, fleets(), this::noPodIsPlannedOntoCapacityThatIsNotInitialised);
  }

  private void noPodIsPlannedOntoCapacityThatIsNotInitialised(Fleet fleet) {
    List<StateNode> nodes = new ArrayList<>();
    int podSeq = 0;
    for (int i = 0; i < fleet.nodes().size(); i++) {
      NodeSpec s = fleet.nodes().get(i);
      List<Pod> pods = new ArrayList<>();
      for (int m : s.podMillis()) {
        pods.add(Fixtures.cpuPod("p" + podSeq++, m + "m", "256Mi"));
      }
      nodes.add(node(s.type(), i, s.initialised(), pods));
    }
    List<Pod> pending = new ArrayList<>();
    for (int m : fleet.pendingMillis()) {
      pending.add(Fixtures.cpuPod("pending" + podSeq++, m + "m", "256Mi"));
    }
    ClusterView view = new ClusterView(T0.plus(Duration.ofHours(1)), List.of(POOL), CATALOG, OfferingAvailability.ALL,
        nodes, pending, List.of(), PdbIndex.NONE);
    Provisioner provisioner = new Provisioner(ProvisioningModel.of(List.of(POOL), CATALOG, List.of(),
        NvidiaDevicePlugin.DEFAULTS, AutoscalerSettings.GpuSizing.PHYSICAL));
    DisruptionController controller = new DisruptionController(AutoscalerSettings.DEFAULTS, provisioner);
    Optional<DisruptionCommand> command = controller.poll(view, new SplittableRandom(11));
    if (command.isEmpty()) {
      return;
    }
    DisruptionCommand c = command.get();
    Set<String> leaving = new HashSet<>(c.candidates());
    List<Pod> moving = new ArrayList<>();
    List<StateNode> staying = new ArrayList<>();
    for (StateNode n : nodes) {
      if (leaving.contains(n.name())) {
        assertThat(n.isInitialized()).as("only initialised nodes are candidates").isTrue();
        moving.addAll(n.reschedulablePods());
      } else {
        staying.add(n);
      }
    }
    Set<String> replacements = new HashSet<>();
    for (NodeClaim r : c.replacements()) {
      // The replacement as capacity on its way, tried after every other node (its name sorts last).
      String name = "zzz-" + r.name();
      replacements.add(name);
      staying.add(new StateNode(name, Optional.of(r), Optional.empty(), List.of(), Set.of(), T0, false));
    }
    // The pending pods are placed with the candidates' pods, as Karpenter simulates them.
    List<Pod> all = new ArrayList<>(pending);
    all.addAll(moving);
    ProvisioningPlan plan = provisioner.solve(all, staying, List.of(), OfferingAvailability.ALL, view.now());
    for (Pod p : moving) {
      String host = plan.onExisting().get(p.key());
      assertThat(host).as("%s of %s has a place (%s)", p.name(), c.describe(), fleet).isNotNull();
      boolean initialised = nodes.stream().anyMatch(n -> n.name().equals(host) && n.isInitialized());
      assertThat(initialised || replacements.contains(host))
          .as("%s of %s lands on %s, initialised or its replacement (%s)", p.name(), c.describe(), host, fleet)
          .isTrue();
    }
  }

  private static StateNode node(String type, int seed, boolean initialised, List<Pod> pods) {
    InstanceType t = CATALOG.require(type);
    var onDemand = t.offerings().stream().filter(o -> o.capacityType() == CapacityType.ON_DEMAND).findFirst()
        .orElseThrow();
    NodeClaim c = Launcher.nodeClaim(POOL, t, onDemand, ResourceList.EMPTY, T0, new SplittableRandom(seed))
        .withLaunched(T0);
    if (!initialised) {
      return new StateNode(c.name(), Optional.of(c), Optional.empty(), pods, Set.of(), T0, false);
    }
    c = c.withRegistered(T0, "n" + seed).withInitialized(T0);
    return new StateNode(c.name(), Optional.of(c), Optional.of(Node.of(c.name(), c.labels(), List.of(),
        t.allocatable())), pods, Set.of(), T0, false);
  }
}
