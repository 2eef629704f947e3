package io.gpufleet.engine.deviceplugin;

import static io.gpufleet.engine.deviceplugin.Fixtures.gpuPod;
import static io.gpufleet.engine.deviceplugin.Fixtures.inventory;
import static io.gpufleet.engine.deviceplugin.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.mig.LayoutPlan;
import io.gpufleet.engine.mig.MigConfigPlanner;
import io.gpufleet.model.deviceplugin.AllocationPolicy;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.MigPartedConfig;
import io.gpufleet.model.deviceplugin.MigStrategy;
import io.gpufleet.model.deviceplugin.SharingMode;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.gpu.MigPlacement;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceName;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DevicePluginTest {

  private static final ResourceName GPU = ResourceName.NVIDIA_GPU;
  private static final ResourceName SHARED = ResourceName.NVIDIA_GPU_SHARED;

  private static long advertised(Node n, String resource) {
    return n.allocatable().getOrZero(ResourceName.of(resource)).value();
  }

  private static MigLayout layout(GpuInventory inv, Map<String, Integer> perGpu) {
    LayoutPlan plan = MigConfigPlanner.plan(List.of(MigPartedConfig.Entry.all(true, perGpu)), inv, MigLayout.NONE);
    return ((LayoutPlan.Planned) plan).layout();
  }

  /** k8s-gpu-semantics §2.2 and §3: what each mode advertises and how GFD labels it. */
  @ParameterizedTest(name = "{0} x{1} {2}")
  @CsvSource(delimiter = '|', value = {
      // model  | n | mode          | resource               | count | product                   | replicas | strategy
      "A10G      | 1 | exclusive     | nvidia.com/gpu         | 1  | NVIDIA-A10G                  | 1 | none",
      "A10G      | 1 | ts4           | nvidia.com/gpu         | 4  | NVIDIA-A10G-SHARED           | 4 | time-slicing",
      "A10G      | 1 | ts4-renamed   | nvidia.com/gpu.shared  | 4  | NVIDIA-A10G                  | 4 | time-slicing",
      "H100-80GB | 8 | ts10          | nvidia.com/gpu         | 80 | NVIDIA-H100-80GB-HBM3-SHARED | 10 | time-slicing",
      "L4        | 1 | mps4          | nvidia.com/gpu         | 4  | NVIDIA-L4-SHARED             | 4 | mps",
      "L4        | 4 | mps4-renamed  | nvidia.com/gpu.shared  | 16 | NVIDIA-L4                    | 4 | mps"})
  void advertisesAndLabelsEachSharingMode(String model, int n, String mode, String resource, long count,
      String product, String replicas, String strategy) {
    DevicePluginConfig config = switch (mode) {
      case "exclusive" -> DevicePluginConfig.DEFAULT;
      case "ts4" -> DevicePluginConfig.timeSliced(4, false);
      case "ts4-renamed" -> DevicePluginConfig.timeSliced(4, true);
      case "ts10" -> DevicePluginConfig.timeSliced(10, false);
      case "mps4" -> DevicePluginConfig.mpsShared(4);
      case "mps4-renamed" -> new DevicePluginConfig(DevicePluginConfig.DEFAULT.flags(), Optional.empty(),
          Optional.of(new io.gpufleet.model.deviceplugin.SharingSpec(true, true,
              List.of(io.gpufleet.model.deviceplugin.ReplicatedResource.of("nvidia.com/gpu", 4)))));
      default -> throw new IllegalArgumentException(mode);
    };
    Registration r = DevicePlugin.register(node("n1"), inventory("n1", model, n), config, MigLayout.NONE);
    assertThat(advertised(r.node(), resource)).isEqualTo(count);
    assertThat(r.node().capacity().getOrZero(ResourceName.of(resource)).value()).isEqualTo(count);
    var labels = r.node().labels();
    assertThat(labels.get("nvidia.com/gpu.product")).hasValue(product);
    assertThat(labels.get("nvidia.com/gpu.count")).hasValue(Integer.toString(n));
    assertThat(labels.get("nvidia.com/gpu.replicas")).hasValue(replicas);
    assertThat(labels.get("nvidia.com/gpu.sharing-strategy")).hasValue(strategy);
    assertThat(labels.get("nvidia.com/mig.strategy")).isEmpty();
  }

  @Test
  void a10gLabelsMatchTheObservedSet() {
    Node n = node("g5").withLabels(io.gpufleet.model.label.Labels.of("node.kubernetes.io/instance-type", "g5.2xlarge"));
    Registration r = DevicePlugin.register(n, inventory("g5", "A10G", 1), DevicePluginConfig.DEFAULT, MigLayout.NONE);
    assertThat(r.node().labels().map()).containsAllEntriesOf(Map.of(
        "nvidia.com/gpu.product", "NVIDIA-A10G", "nvidia.com/gpu.memory", "23028", "nvidia.com/gpu.count", "1",
        "nvidia.com/gpu.family", "ampere", "nvidia.com/gpu.compute.major", "8", "nvidia.com/gpu.compute.minor", "6",
        "nvidia.com/mig.capable", "false", "nvidia.com/gpu.machine", "g5.2xlarge", "nvidia.com/gpu.replicas", "1",
        "nvidia.com/gpu.sharing-strategy", "none"));
  }

  @Test
  void h100AllOneGigInMixedStrategyAdvertisesSevenSlices() {
    GpuInventory inv = inventory("p5", "H100-80GB", 1);
    Registration r = DevicePlugin.register(node("p5"), inv, DevicePluginConfig.mig(MigStrategy.MIXED),
        layout(inv, Map.of("1g.10gb", 7)));
    assertThat(advertised(r.node(), "nvidia.com/mig-1g.10gb")).isEqualTo(7);
    assertThat(r.node().allocatable().contains(GPU)).isFalse();
    assertThat(r.node().labels().map()).containsAllEntriesOf(Map.of(
        "nvidia.com/mig.strategy", "mixed", "nvidia.com/mig-1g.10gb.count", "7",
        "nvidia.com/mig-1g.10gb.product", "NVIDIA-H100-80GB-HBM3-MIG-1g.10gb", "nvidia.com/mig-1g.10gb.slices.gi", "1",
        "nvidia.com/mig-1g.10gb.multiprocessors", "16", "nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3",
        "nvidia.com/gpu.replicas", "0"));
  }

  @Test
  void mixedLayoutAdvertisesEachProfileAndWholeGpus() {
    GpuInventory inv = inventory("p4de", "A100-80GB", 2);
    MigLayout balanced = ((LayoutPlan.Planned) MigConfigPlanner.plan(List.of(
        new MigPartedConfig.Entry(List.of(), Optional.of(List.of(0)), true,
            new java.util.TreeMap<>(Map.of("1g.10gb", 2, "2g.20gb", 1, "3g.40gb", 1)))), inv, MigLayout.NONE)).layout();
    Registration r = DevicePlugin.register(node("p4de"), inv, DevicePluginConfig.mig(MigStrategy.MIXED), balanced);
    assertThat(r.advertisement().counts()).containsExactlyInAnyOrderEntriesOf(Map.of(
        GPU, 1L, ResourceName.of("nvidia.com/mig-1g.10gb"), 2L, ResourceName.of("nvidia.com/mig-2g.20gb"), 1L,
        ResourceName.of("nvidia.com/mig-3g.40gb"), 1L));
    assertThat(r.node().labels().get("nvidia.com/mig-2g.20gb.memory")).hasValue("19968");
  }

  @Test
  void singleStrategyAdvertisesMigDevicesAsGpus() {
    GpuInventory inv = inventory("p5", "H100-80GB", 2);
    Registration r = DevicePlugin.register(node("p5"), inv, DevicePluginConfig.mig(MigStrategy.SINGLE),
        layout(inv, Map.of("1g.10gb", 7)));
    assertThat(advertised(r.node(), "nvidia.com/gpu")).isEqualTo(14);
    assertThat(r.node().labels().get("nvidia.com/gpu.product")).hasValue("NVIDIA-H100-80GB-HBM3-MIG-1g.10gb");
    assertThat(r.node().labels().get("nvidia.com/gpu.count")).hasValue("14");
    // The MIG device's memory as nvidia-smi mig -lgip prints it for an H100 80GB's 1g.10gb: 9.75 GiB.
    assertThat(r.node().labels().get("nvidia.com/gpu.memory")).hasValue("9984");
  }

  @Test
  void singleStrategyWithMixedProfilesIsInvalid() {
    GpuInventory inv = inventory("p5", "H100-80GB", 1);
    Registration r = DevicePlugin.register(node("p5"), inv, DevicePluginConfig.mig(MigStrategy.SINGLE),
        layout(inv, Map.of("1g.10gb", 2, "3g.40gb", 1)));
    assertThat(advertised(r.node(), "nvidia.com/gpu")).isZero();
    assertThat(r.node().allocatable().contains(GPU)).isTrue();
    assertThat(r.node().labels().get("nvidia.com/gpu.product")).hasValue("NVIDIA-H100-80GB-HBM3-MIG-INVALID");
    assertThat(r.warnings()).anyMatch(w -> w.contains("one profile"));
  }

  @Test
  void migOnA10gIsRefused() {
    LayoutPlan plan = MigConfigPlanner.plan(List.of(MigPartedConfig.Entry.all(true, Map.of("1g.10gb", 7))),
        inventory("g5", "A10G", 1), MigLayout.NONE);
    assertThat(plan).isEqualTo(new LayoutPlan.Rejected("MIG is not supported on NVIDIA A10G"));
    LayoutPlan disabled = MigConfigPlanner.plan(List.of(MigPartedConfig.Entry.all(false, Map.of())),
        inventory("g5", "A10G", 1), MigLayout.NONE);
    assertThat(disabled).isEqualTo(new LayoutPlan.Planned(MigLayout.NONE));
  }

  @Test
  void reRegistrationKeepsAResourceNoLongerAdvertisedAtZero() {
    Registration shared = DevicePlugin.register(node("g5"), inventory("g5", "A10G", 1),
        DevicePluginConfig.timeSliced(4, false), MigLayout.NONE);
    Registration renamed = DevicePlugin.register(shared.node(), inventory("g5", "A10G", 1),
        DevicePluginConfig.timeSliced(4, true), MigLayout.NONE);
    assertThat(renamed.node().allocatable().get(GPU)).hasValue(Quantity.ZERO);
    assertThat(advertised(renamed.node(), "nvidia.com/gpu.shared")).isEqualTo(4);
    assertThat(renamed.node().labels().get("nvidia.com/gpu.product")).hasValue("NVIDIA-A10G");
  }

  @Test
  void mpsClientLimitsFollowTheControlDaemon() {
    // The config's MPS sharing hands each device the mode the performance model reasons over.
    SharingMode four = DevicePluginConfig.mpsShared(4).sharing().modeOf("nvidia.com/gpu");
    assertThat(four).isEqualTo(new SharingMode.Mps(4, 25, true));
    assertThat(((SharingMode.Mps) four).clientMemoryMiB(Fixtures.gpu("L4").memoryMiB().orElseThrow())).isEqualTo(5758);
    SharingMode.Mps three = (SharingMode.Mps) DevicePluginConfig.mpsShared(3).sharing().modeOf("nvidia.com/gpu");
    assertThat(three.activeThreadPercentage()).isEqualTo(33);
    assertThat(three.clientMemoryMiB(Fixtures.gpu("H200-141GB").memoryMiB().orElseThrow())).isEqualTo(47923);
  }

  @Test
  void eachSharingStrategyNamesTheModeOfItsDevices() {
    assertThat(DevicePluginConfig.DEFAULT.sharing().modeOf("nvidia.com/gpu")).isEqualTo(new SharingMode.Exclusive());
    assertThat(DevicePluginConfig.timeSliced(4, false).sharing().modeOf("nvidia.com/gpu"))
        .isEqualTo(new SharingMode.TimeSlicing(4));
    // A resource the config does not share stays exclusive under any strategy.
    assertThat(DevicePluginConfig.timeSliced(4, false).sharing().modeOf("nvidia.com/mig-1g.10gb"))
        .isEqualTo(new SharingMode.Exclusive());
    assertThat(DevicePluginConfig.mpsShared(2).sharing().family()).isEqualTo(SharingMode.Family.MPS);
  }

  // ---- allocation ----

  private static NodeDevices devices(String model, int n, DevicePluginConfig config) {
    return DevicePlugin.register(node("n1"), inventory("n1", model, n), config, MigLayout.NONE).devices().orElseThrow();
  }

  @Test
  void fourTimeSlicedPodsShareGpuZero() {
    NodeDevices state = devices("A10G", 1, DevicePluginConfig.timeSliced(4, false));
    List<DeviceAllocation.Result> results = DevicePlugin.allocateAll(state,
        List.of(gpuPod("a", "nvidia.com/gpu", 1), gpuPod("b", "nvidia.com/gpu", 1), gpuPod("c", "nvidia.com/gpu", 1),
            gpuPod("d", "nvidia.com/gpu", 1), gpuPod("e", "nvidia.com/gpu", 1)));
    assertThat(results.subList(0, 4)).allSatisfy(r -> {
      assertThat(r).isInstanceOf(DeviceAllocation.Result.Granted.class);
      Device d = ((DeviceAllocation.Result.Granted) r).containers().getFirst().devices().getFirst();
      assertThat(d.gpuIndex()).isZero();
    });
    assertThat(results.get(4)).isInstanceOf(DeviceAllocation.Result.Refused.class);
  }

  @Test
  void twoReplicasFailWhenTheConfigSaysSo() {
    NodeDevices mps = devices("L4", 1, DevicePluginConfig.mpsShared(4));
    var r = DevicePlugin.allocate(mps, gpuPod("big", "nvidia.com/gpu", 2));
    assertThat(r).isInstanceOf(DeviceAllocation.Result.Refused.class);
    assertThat(((DeviceAllocation.Result.Refused) r).reason()).isEqualTo("UnexpectedAdmissionError");
    assertThat(((DeviceAllocation.Result.Refused) r).message())
        .contains("invalid allocation request for \"nvidia.com/gpu\": invalid request: maximum request size for "
            + "shared resources is 1; found 2");
  }

  /** k8s-gpu-semantics §7 point 11: two shared "GPUs" can be two replicas of one card. */
  @Test
  void twoReplicasMayLandOnOneCard() {
    var one = DevicePlugin.allocate(devices("A10G", 1, DevicePluginConfig.timeSliced(4, false)),
        gpuPod("two", "nvidia.com/gpu", 2));
    assertThat(((DeviceAllocation.Result.Granted) one).containers().getFirst().devices())
        .extracting(Device::gpuIndex).containsExactly(0, 0);

    DevicePluginConfig distributed = DevicePluginConfig.timeSliced(4, false);
    var spread = DevicePlugin.allocate(devices("A10G", 2, distributed), gpuPod("two", "nvidia.com/gpu", 2));
    assertThat(((DeviceAllocation.Result.Granted) spread).containers().getFirst().devices())
        .extracting(Device::gpuIndex).containsExactly(0, 1);

    DevicePluginConfig packed = distributed.withFlags(distributed.flags().withAllocationPolicy(AllocationPolicy.PACKED));
    var pack = DevicePlugin.allocate(devices("A10G", 2, packed), gpuPod("two", "nvidia.com/gpu", 2));
    assertThat(((DeviceAllocation.Result.Granted) pack).containers().getFirst().devices())
        .extracting(Device::gpuIndex).containsExactly(0, 0);
  }

  @Test
  void distributedSpreadsSeparatePodsAndPackedFillsOneCard() {
    DevicePluginConfig ts = DevicePluginConfig.timeSliced(2, false);
    var spread = DevicePlugin.allocateAll(devices("T4", 2, ts), List.of(gpuPod("a", "nvidia.com/gpu", 1),
        gpuPod("b", "nvidia.com/gpu", 1)));
    assertThat(spread).map(r -> ((DeviceAllocation.Result.Granted) r).containers().getFirst().devices().getFirst()
        .gpuIndex()).containsExactly(0, 1);
    DevicePluginConfig packed = ts.withFlags(ts.flags().withAllocationPolicy(AllocationPolicy.PACKED));
    var pack = DevicePlugin.allocateAll(devices("T4", 2, packed), List.of(gpuPod("a", "nvidia.com/gpu", 1),
        gpuPod("b", "nvidia.com/gpu", 1)));
    assertThat(pack).map(r -> ((DeviceAllocation.Result.Granted) r).containers().getFirst().devices().getFirst()
        .gpuIndex()).containsExactly(0, 0);
  }

  // ---- faults ----

  @Test
  void anXidOnATimeSlicedCardReachesEveryPodOnIt() {
    NodeDevices state = devices("A10G", 2, DevicePluginConfig.timeSliced(4, false).withFlags(
        DevicePluginConfig.DEFAULT.flags().withAllocationPolicy(AllocationPolicy.PACKED)));
    for (String p : List.of("a", "b", "c", "d", "e")) {
      state = ((DeviceAllocation.Result.Granted) DevicePlugin.allocate(state, gpuPod(p, "nvidia.com/gpu", 1))).next();
    }
    assertThat(FaultAttribution.affectedPods(state, new Fault.GpuFault(0, 79)))
        .containsExactly("default/a", "default/b", "default/c", "default/d");
    assertThat(FaultAttribution.affectedPods(state, new Fault.GpuFault(1, 79))).containsExactly("default/e");
  }

  @Test
  void aMigSliceFaultReachesOnlyItsPod() {
    GpuInventory inv = inventory("p5", "H100-80GB", 1);
    NodeDevices state = DevicePlugin.register(node("p5"), inv, DevicePluginConfig.mig(MigStrategy.MIXED),
        layout(inv, Map.of("1g.10gb", 7))).devices().orElseThrow();
    for (String p : List.of("a", "b", "c")) {
      state = ((DeviceAllocation.Result.Granted) DevicePlugin.allocate(state,
          gpuPod(p, "nvidia.com/mig-1g.10gb", 1))).next();
    }
    assertThat(FaultAttribution.affectedPods(state, new Fault.MigFault(0, new MigPlacement(1, 1), 94)))
        .containsExactly("default/b");
    assertThat(FaultAttribution.affectedPods(state, new Fault.GpuFault(0, 79)))
        .containsExactly("default/a", "default/b", "default/c");
  }

  @Test
  void releasingAPodFreesItsReplica() {
    NodeDevices state = devices("A10G", 1, DevicePluginConfig.timeSliced(2, false));
    state = ((DeviceAllocation.Result.Granted) DevicePlugin.allocate(state, gpuPod("a", "nvidia.com/gpu", 1))).next();
    state = ((DeviceAllocation.Result.Granted) DevicePlugin.allocate(state, gpuPod("b", "nvidia.com/gpu", 1))).next();
    assertThat(state.free(GPU)).isEmpty();
    assertThat(state.withoutPod("default/a").free(GPU)).hasSize(1);
    assertThat(SHARED.name()).isEqualTo("nvidia.com/gpu.shared");
  }
}
