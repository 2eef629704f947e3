package io.gpufleet.engine.deviceplugin;

import static io.gpufleet.engine.deviceplugin.Fixtures.inventory;
import static io.gpufleet.engine.deviceplugin.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import org.junit.jupiter.api.Test;

/**
 * A node's own report is the truth of "now": what {@link GpuOperator#registerObserved} keeps of a
 * dumped node, and when it says that the selected config disagrees.
 */
class ObservedRegistrationTest {

  /** A dumped node: its status lists {@code resource: count}, its labels as GFD wrote them. */
  private static Node reported(String resource, int capacity, int allocatable, String... labels) {
    Node n = node("gpu-1");
    for (int i = 0; i < labels.length; i += 2) {
      n = n.withLabels(n.labels().with(labels[i], labels[i + 1]));
    }
    return n.withResources(n.capacity().with(ResourceName.of(resource), Quantity.of(capacity)),
        n.allocatable().with(ResourceName.of(resource), Quantity.of(allocatable)));
  }

  private static long count(ResourceList list, String resource) {
    return list.getOrZero(ResourceName.of(resource)).value();
  }

  @Test
  void aTimeSlicedDumpWithoutItsConfigMapKeepsItsReplicasAndSaysSo() {
    Node dumped = reported("nvidia.com/gpu.shared", 4, 4, GfdLabels.PRODUCT, "NVIDIA-A10G",
        GfdLabels.SHARING_STRATEGY, "time-slicing", GfdLabels.REPLICAS, "4", GfdLabels.COUNT, "1",
        "nvidia.com/cuda.driver.major", "550");

    GpuOperator.Reconciled r = GpuOperator.DEFAULTS.registerObserved(dumped, inventory("gpu-1", "A10G", 1));

    Node n = r.registration().node();
    assertThat(count(n.capacity(), "nvidia.com/gpu.shared")).isEqualTo(4);
    assertThat(count(n.allocatable(), "nvidia.com/gpu.shared")).isEqualTo(4);
    assertThat(count(n.allocatable(), "nvidia.com/gpu")).isZero();
    // Its devices are modelled under the config its labels show: four replicas of one card.
    assertThat(r.registration().devices().orElseThrow().devicesOf(ResourceName.NVIDIA_GPU_SHARED)).hasSize(4);
    assertThat(n.labels().get(GfdLabels.SHARING_STRATEGY)).hasValue("time-slicing");
    assertThat(n.labels().get("nvidia.com/cuda.driver.major")).hasValue("550");
    assertThat(r.disagreement()).hasValueSatisfying(d -> assertThat(d)
        .contains("reports nvidia.com/gpu.shared: 4")
        .contains("(<built-in>, no config map: plugin defaults) would advertise nvidia.com/gpu: 1")
        .contains("time-slicing, 4 replicas, renamed"));
  }

  @Test
  void aReportTheModelAgreesWithSaysNothingAndKeepsLabelsTheModelDoesNotCompute() {
    Node dumped = reported("nvidia.com/gpu", 1, 1, GfdLabels.PRODUCT, "NVIDIA-A10G", GfdLabels.COUNT, "1",
        "nvidia.com/cuda.driver.major", "550", "nvidia.com/gpu.clique", "abc.1");

    GpuOperator.Reconciled r = GpuOperator.DEFAULTS.registerObserved(dumped, inventory("gpu-1", "A10G", 1));

    assertThat(r.disagreement()).isEmpty();
    assertThat(r.registration().node().labels().get("nvidia.com/cuda.driver.major")).hasValue("550");
    assertThat(r.registration().node().labels().get("nvidia.com/gpu.clique")).hasValue("abc.1");
  }

  @Test
  void aNodeDumpedWithItsGfdLabelsButNotItsStatusKeepsItsLabels() {
    Node dumped = node("gpu-1");
    dumped = dumped.withLabels(dumped.labels().with(GfdLabels.PRODUCT, "A100-SXM4-40GB").with(GfdLabels.COUNT, "1")
        .with("nvidia.com/cuda.driver.major", "455"));

    GpuOperator.Reconciled r = GpuOperator.DEFAULTS.registerObserved(dumped, inventory("gpu-1", "A100-40GB", 1));

    assertThat(r.registration().node().labels().map()).containsAllEntriesOf(dumped.labels().map());
    assertThat(count(r.registration().node().allocatable(), "nvidia.com/gpu")).isEqualTo(1);
    // Without such a label the node is hand-written, and GFD's labels are the model's.
    Node written = node("gpu-1").withLabels(node("gpu-1").labels().with(GfdLabels.PRODUCT, "A100-SXM4-40GB"));
    assertThat(GpuOperator.DEFAULTS.registerObserved(written, inventory("gpu-1", "A100-40GB", 1)).registration()
        .node().labels().get(GfdLabels.PRODUCT)).hasValue("NVIDIA-A100-SXM4-40GB");
  }

  @Test
  void aNodeWithoutGfdGetsNoLabelTheTwinsGfdWouldWrite() {
    Node plain = reported("nvidia.com/gpu", 1, 1, "kubernetes.io/hostname", "gpu-1");

    GpuOperator.Reconciled r = GpuOperator.DEFAULTS.registerObserved(plain, inventory("gpu-1", "A10G", 1));

    assertThat(r.registration().node().labels()).isEqualTo(plain.labels());
  }

  @Test
  void anUnhealthyCardStaysOutOfAllocatableAsTheNodeReports() {
    Node dumped = reported("nvidia.com/gpu", 8, 7, GfdLabels.PRODUCT, "NVIDIA-H100-80GB-HBM3", GfdLabels.COUNT, "8");

    GpuOperator.Reconciled r = GpuOperator.DEFAULTS.registerObserved(dumped, inventory("gpu-1", "H100-80GB", 8));

    assertThat(count(r.registration().node().capacity(), "nvidia.com/gpu")).isEqualTo(8);
    assertThat(count(r.registration().node().allocatable(), "nvidia.com/gpu")).isEqualTo(7);
    assertThat(r.disagreement()).isEmpty();
  }

  @Test
  void aNodeWrittenWithoutGpuResourcesRegistersAsTheSelectedConfigSays() {
    GpuOperator ts4 = GpuOperator.withConfig("ts4", DevicePluginConfig.timeSliced(4, false));
    Node written = node("gpu-1").withLabels(node("gpu-1").labels().with(NamedConfigs.NODE_LABEL, "ts4"));

    GpuOperator.Reconciled r = ts4.registerObserved(written, inventory("gpu-1", "A10G", 1));

    assertThat(count(r.registration().node().allocatable(), "nvidia.com/gpu")).isEqualTo(4);
    assertThat(r.registration().node().labels().get(GfdLabels.PRODUCT)).hasValue("NVIDIA-A10G-SHARED");
    assertThat(r.disagreement()).isEmpty();
  }

  @Test
  void aSelectedConfigTheNodeHasNotTakenYetIsSaidAndTheReportWins() {
    GpuOperator ts4 = GpuOperator.withConfig("ts4", DevicePluginConfig.timeSliced(4, false));
    Node dumped = reported("nvidia.com/gpu", 1, 1, NamedConfigs.NODE_LABEL, "ts4", GfdLabels.PRODUCT, "NVIDIA-A10G");

    GpuOperator.Reconciled r = ts4.registerObserved(dumped, inventory("gpu-1", "A10G", 1));

    assertThat(count(r.registration().node().allocatable(), "nvidia.com/gpu")).isEqualTo(1);
    assertThat(r.registration().node().labels().get(GfdLabels.PRODUCT)).hasValue("NVIDIA-A10G");
    assertThat(r.disagreement()).hasValueSatisfying(d -> assertThat(d)
        .contains("reports nvidia.com/gpu: 1").contains("(ts4, from label nvidia.com/device-plugin.config) would "
            + "advertise nvidia.com/gpu: 4").contains("exclusive"));
  }

  @Test
  void aCountNoConfigExplainsIsKeptAndTheDevicesFollowTheSelectedConfig() {
    Node dumped = reported("nvidia.com/gpu", 3, 3);

    GpuOperator.Reconciled r = GpuOperator.DEFAULTS.registerObserved(dumped, inventory("gpu-1", "A10G", 2));

    assertThat(count(r.registration().node().allocatable(), "nvidia.com/gpu")).isEqualTo(3);
    assertThat(r.registration().devices().orElseThrow().devicesOf(ResourceName.NVIDIA_GPU)).hasSize(2);
    assertThat(r.disagreement()).hasValueSatisfying(d -> assertThat(d)
        .contains("its devices as the selected config lays them out, its counts as reported"));
  }

  @Test
  void theImpliedConfigReadsGfdsSharingLabelsAndTheRenamedResource() {
    Node mps = reported("nvidia.com/gpu", 8, 8, GfdLabels.SHARING_STRATEGY, "mps", GfdLabels.REPLICAS, "4");
    ObservedGpus seen = ObservedGpus.of(mps).orElseThrow();
    DevicePluginConfig implied = seen.impliedConfig(inventory("gpu-1", "A10G", 2));
    assertThat(implied.sharing().strategy()).isEqualTo("mps");
    assertThat(implied.sharing().replicas("nvidia.com/gpu")).isEqualTo(4);
    assertThat(ObservedGpus.of(node("plain"))).isEmpty();
    assertThat(ObservedGpus.of(reported("nvidia.com/gpu", 1, 1)).orElseThrow().impliedConfig(
        inventory("gpu-1", "A10G", 1))).isEqualTo(DevicePluginConfig.DEFAULT);
  }
}
