package io.gpufleet.sim.invariant;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.sim.state.ClusterState;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.state.PodState;
import io.gpufleet.sim.testing.Objects;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The invariant checker itself: each rule catches what it is for. */
class InvariantsTest {

  static final Instant T = Instant.parse("2026-01-05T00:00:00Z");

  static ClusterState withPodOn(Node node, String podName) {
    var pod = new io.gpufleet.model.pod.Pod(io.gpufleet.model.meta.ObjectMeta.named(podName),
        Objects.gpuSpec(1, "2", "8Gi", "img"));
    ClusterState s = ClusterState.empty(InstanceCatalog.builtIn());
    s = s.withNode(NodeState.joining(node, Optional.empty(), Optional.empty(), T, true, true, 1,
        io.gpufleet.model.gpu.MigLayout.NONE));
    s = s.withSnapshot(s.snapshot().withNode(node).bind(PodInfo.of(pod), node.name()));
    return s.withPod(new PodState(pod, 0, Optional.empty(), PodState.Phase.RUNNING, Optional.of(node.name()), T,
        Optional.of(T), Optional.of(T), Optional.empty(), Optional.empty(), 0));
  }

  @Test
  void aPluginThatRegisteredFromAPodThatIsNotRunningIsCaught() {
    Node gpu = Node.of("g", Labels.EMPTY, List.of(), ResourceList.of("cpu", "4", "memory", "16Gi", "pods", "10",
        "nvidia.com/gpu", "1"));
    var plugin = new io.gpufleet.model.pod.Pod(io.gpufleet.model.meta.ObjectMeta.named("plugin"),
        Objects.gpuSpec(0, "50m", "64Mi", "nvcr.io/nvidia/k8s-device-plugin:v0.17.0"));
    ClusterState s = ClusterState.empty(InstanceCatalog.builtIn());
    s = s.withNode(NodeState.joining(gpu, Optional.empty(), Optional.empty(), T, true, true, 1,
        io.gpufleet.model.gpu.MigLayout.NONE).withPluginPod(Optional.of("default/plugin")));
    s = s.withSnapshot(s.snapshot().withNode(gpu).bind(PodInfo.of(plugin), "g"));
    PodState starting = new PodState(plugin, 0, Optional.empty(), PodState.Phase.STARTING, Optional.of("g"), T,
        Optional.of(T), Optional.empty(), Optional.empty(), Optional.empty(), 0);
    assertThat(Invariants.check(s.withPod(starting), T, List.of("g"), List.of(), List.of()))
        .extracting(InvariantViolation::invariant).containsExactly("device-plugin");
    PodState running = new PodState(plugin, 0, Optional.empty(), PodState.Phase.RUNNING, Optional.of("g"), T,
        Optional.of(T), Optional.empty(), Optional.empty(), Optional.empty(), 1);
    assertThat(Invariants.check(s.withPod(running), T, List.of("g"), List.of(), List.of())).isEmpty();
    // Unregistered, the plugin's pod may be anywhere in its life.
    ClusterState unregistered = s.withNode(s.nodes().get("g").withPlugin(false, 0)).withPod(starting);
    assertThat(Invariants.check(unregistered, T, List.of("g"), List.of(), List.of())).isEmpty();
  }

  @Test
  void catchesOvercommitUntoleratedNoExecuteAndBadBindings() {
    Node small = Node.of("n", Labels.EMPTY, List.of(Taint.of("maint", "", TaintEffect.NO_EXECUTE)),
        ResourceList.of("cpu", "1", "memory", "4Gi", "pods", "10", "nvidia.com/gpu", "1"));
    ClusterState s = withPodOn(small, "p");
    var found = Invariants.check(s, T, List.of("n"), List.of("default/p"), List.of());
    assertThat(found).extracting(InvariantViolation::invariant).containsExactlyInAnyOrder("overcommit", "taints",
        "taints");
  }

  @Test
  void catchesEvictionsPastAPdbOrOfADoNotDisruptPod() {
    var found = Invariants.check(ClusterState.empty(InstanceCatalog.builtIn()), T, List.of(), List.of(), List.of(
        new Eviction("default/a", false, Optional.of("default/pdb"), 0, false),
        new Eviction("default/b", false, Optional.empty(), Integer.MAX_VALUE, true),
        new Eviction("default/c", true, Optional.of("default/pdb"), 0, true)));
    assertThat(found).extracting(InvariantViolation::invariant).containsExactly("pdb", "do-not-disrupt");
  }

  @Test
  void catchesADeviceHeldTwiceOrByAPodBoundElsewhere() {
    Node node = Node.of("g", Labels.EMPTY, List.of(),
        ResourceList.of("cpu", "8", "memory", "32Gi", "pods", "10", "nvidia.com/gpu", "1"));
    ClusterState s = withPodOn(node, "p");
    var model = io.gpufleet.model.gpu.GpuCatalog.builtIn().byId("A10G").orElseThrow();
    var inventory = new io.gpufleet.model.gpu.GpuInventory("g", model, 1);
    var config = io.gpufleet.model.deviceplugin.DevicePluginConfig.DEFAULT;
    var devices = io.gpufleet.engine.deviceplugin.DevicePlugin.register(node, inventory, config,
        io.gpufleet.model.gpu.MigLayout.NONE).devices().orElseThrow();
    var card = devices.devices().getFirst();
    var held = new io.gpufleet.engine.deviceplugin.ContainerDevices("default/p", "c",
        io.gpufleet.model.resource.ResourceName.NVIDIA_GPU, List.of(card));
    var ghost = new io.gpufleet.engine.deviceplugin.ContainerDevices("default/ghost", "c",
        io.gpufleet.model.resource.ResourceName.NVIDIA_GPU, List.of(card));
    var twice = devices.withPod("default/p", List.of(held)).withPod("default/ghost", List.of(ghost));
    s = s.withNode(s.nodes().get("g").withDevices(Optional.of(twice)));
    var found = Invariants.check(s, T, List.of("g"), List.of(), List.of());
    assertThat(found).extracting(InvariantViolation::invariant).containsExactly("devices", "devices");
    assertThat(found).extracting(InvariantViolation::subject).contains("default/ghost");

    s = s.withNode(s.nodes().get("g").withDevices(Optional.of(devices.withPod("default/p", List.of(held)))));
    assertThat(Invariants.check(s, T, List.of("g"), List.of(), List.of())).isEmpty();
  }

  static io.gpufleet.model.dra.ResourceClaim claim(String name) {
    return new io.gpufleet.model.dra.ResourceClaim("default", name, new io.gpufleet.model.dra.ResourceClaimSpec(
        List.of()));
  }

  static io.gpufleet.engine.dra.Allocation allocation(String claim, String node, String device) {
    return new io.gpufleet.engine.dra.Allocation("default/" + claim, node, List.of(
        new io.gpufleet.engine.dra.Allocation.Result("gpu", "gpu.nvidia.com", node, device)));
  }

  @Test
  void oneDeviceInTwoClaimsAndAReservationForAGonePodAreCaught() {
    Node n = Node.of("g", Labels.EMPTY, List.of(), ResourceList.of("cpu", "4", "memory", "16Gi", "pods", "10"));
    ClusterState s = withPodOn(n, "p");
    var table = io.gpufleet.sim.state.ClaimTable.EMPTY.withWritten(claim("a")).withWritten(claim("b"))
        .reserved("default/a", Optional.of(allocation("a", "g", "gpu-0")), "default/p")
        .reserved("default/b", Optional.of(allocation("b", "g", "gpu-0")), "default/gone");
    var found = Invariants.check(s.withDra(table), T, List.of(), List.of(), List.of());
    assertThat(found).extracting(InvariantViolation::detail).containsExactlyInAnyOrder(
        "device gpu.nvidia.com/g/gpu-0 is also allocated to default/a", "reserved for default/gone, which is gone");
  }

  @Test
  void aClaimAllocatedOnlyWhileReservedHoldsAndFreeingItHoldsToo() {
    Node n = Node.of("g", Labels.EMPTY, List.of(), ResourceList.of("cpu", "4", "memory", "16Gi", "pods", "10"));
    ClusterState s = withPodOn(n, "p");
    var table = io.gpufleet.sim.state.ClaimTable.EMPTY.withWritten(claim("a"))
        .reserved("default/a", Optional.of(allocation("a", "g", "gpu-0")), "default/p");
    assertThat(Invariants.check(s.withDra(table), T, List.of(), List.of(), List.of())).isEmpty();
    var freed = table.withoutPod("default/p");
    assertThat(freed.claim("default/a").orElseThrow().allocation()).isEmpty();
    assertThat(Invariants.check(s.withDra(freed), T, List.of(), List.of(), List.of())).isEmpty();
  }
}
