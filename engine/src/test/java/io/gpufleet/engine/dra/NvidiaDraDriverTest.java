package io.gpufleet.engine.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.dra.AttributeValue;
import io.gpufleet.model.dra.Device;
import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.dra.ResourceClaimSpec;
import io.gpufleet.model.dra.ResourceSlice;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.ResourceList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The driver's slice for whole cards and for cards the MIG manager has partitioned. */
class NvidiaDraDriverTest {

  private static final NvidiaDraDriver DRIVER = new NvidiaDraDriver(GpuCatalog.builtIn());

  private static Node h100(String name, String... moreLabels) {
    Labels labels = Labels.of("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3", "nvidia.com/gpu.count", "2")
        .withAll(Labels.of(moreLabels));
    return Node.of(name, labels, List.of(), ResourceList.of("cpu", "32", "memory", "256Gi", "pods", "110"));
  }

  @Test
  void aWholeCardCarriesItsUuid() {
    ResourceSlice s = DRIVER.slice(h100("n")).orElseThrow();
    assertThat(s.devices()).extracting(Device::name).containsExactly("gpu-0", "gpu-1");
    assertThat(s.devices().get(1).attributes()).containsEntry("type", new AttributeValue.Str("gpu"))
        .containsEntry("uuid", new AttributeValue.Str(GpuInventory.uuid("n", 1)));
  }

  @Test
  void aMigConfiguredNodePublishesItsMigDevicesInsteadOfTheCards() {
    ResourceSlice s = DRIVER.slice(h100("m", "nvidia.com/mig.config", "all-1g.10gb")).orElseThrow();
    // Seven 1g.10gb instances per card (GI profile 19), at placements 0..6, named as mig.go's ToCanonicalName.
    assertThat(s.devices()).hasSize(14).noneMatch(d -> d.name().equals("gpu-0") || d.name().equals("gpu-1"));
    assertThat(s.devices().subList(0, 7)).extracting(Device::name).containsExactly("gpu-0-mig-1g10gb-19-0",
        "gpu-0-mig-1g10gb-19-1", "gpu-0-mig-1g10gb-19-2", "gpu-0-mig-1g10gb-19-3", "gpu-0-mig-1g10gb-19-4",
        "gpu-0-mig-1g10gb-19-5", "gpu-0-mig-1g10gb-19-6");
    Device d = s.devices().get(9);
    assertThat(d.name()).isEqualTo("gpu-1-mig-1g10gb-19-2");
    assertThat(d.attributes()).containsEntry("type", new AttributeValue.Str("mig"))
        .containsEntry("profile", new AttributeValue.Str("1g.10gb"))
        .containsEntry("parentUUID", new AttributeValue.Str(GpuInventory.uuid("m", 1)))
        .containsEntry("productName", new AttributeValue.Str("NVIDIA H100 80GB HBM3"))
        .containsKey("uuid");
    assertThat(d.capacity()).containsEntry("memorySlice2", "1").containsEntry("multiprocessors", "16")
        .doesNotContainKey("memorySlice3");
  }

  @Test
  void theMigClassAllocatesMigDevicesByProfile() {
    ResourceSlice s = DRIVER.slice(h100("m", "nvidia.com/mig.config", "all-1g.10gb")).orElseThrow();
    DraObjects objects = new DraObjects(NvidiaDraDriver.deviceClasses(), List.of(), List.of(), List.of(s));
    ResourceClaim claim = new ResourceClaim("default", "two-slices", new ResourceClaimSpec(List.of(
        new DeviceRequest("mig", "mig.nvidia.com",
            List.of("device.attributes[\"gpu.nvidia.com\"].profile == \"1g.10gb\""),
            DeviceRequest.AllocationMode.EXACT_COUNT, 2))));
    var outcome = new DeviceAllocator(objects, new CelDeviceSelector()).allocate(List.of(claim), "m", Set.of());
    assertThat(outcome).isInstanceOf(DeviceAllocator.Outcome.Allocated.class);
    assertThat(((DeviceAllocator.Outcome.Allocated) outcome).allocations().getFirst().results())
        .extracting(Allocation.Result::device).containsExactly("gpu-0-mig-1g10gb-19-0", "gpu-0-mig-1g10gb-19-1");
    // The gpu class matches none of them: the cards are not published.
    ResourceClaim whole = new ResourceClaim("default", "card", new ResourceClaimSpec(List.of(
        new DeviceRequest("gpu", "gpu.nvidia.com", List.of(), DeviceRequest.AllocationMode.EXACT_COUNT, 1))));
    assertThat(new DeviceAllocator(objects, new CelDeviceSelector()).allocate(List.of(whole), "m", Set.of()))
        .isInstanceOf(DeviceAllocator.Outcome.Unsatisfiable.class);
  }

  @Test
  void aNodeWhoseDevicePluginAdvertisesMigResourcesGetsNoSlice() {
    Node n = h100("p", "nvidia.com/mig.config", "all-1g.10gb");
    n = Node.of("p", n.labels(), List.of(), n.allocatable().plus(ResourceList.of("nvidia.com/mig-1g.10gb", "14")));
    assertThat(DRIVER.slice(n)).isEmpty();
  }

  @Test
  void profileNamesBecomeRfc1123AsTheDriverMakesThem() {
    assertThat(NvidiaDraDriver.rfc1123("1g10gb+me")).isEqualTo("1g10gb-me");
    assertThat(NvidiaDraDriver.rfc1123("1G24GB+ME")).isEqualTo("1g24gb-me");
  }

  @Test
  void aCardCarriesBrandVersionsAndPciAttributesWithTheVersionsGfdSaw() {
    Node n = h100("v", "nvidia.com/cuda.driver-version.full", "550.127.05", "nvidia.com/cuda.runtime-version.full",
        "12.4");
    var cc = GpuCatalog.builtIn().find("NVIDIA-H100-80GB-HBM3").orElseThrow().compute().orElseThrow();
    List<Device> cards = DRIVER.slice(n).orElseThrow().devices();
    assertThat(cards.getFirst().attributes())
        .containsEntry("brand", new AttributeValue.Str(NvidiaDraDriver.BRAND))
        .containsEntry("architecture", new AttributeValue.Str("Hopper"))
        .containsEntry("cudaComputeCapability", new AttributeValue.Version(cc.major() + "." + cc.minor() + ".0"))
        // Masterminds' semver reads each part as a number: the revision's leading zero goes, a missing patch is 0.
        .containsEntry("driverVersion", new AttributeValue.Version("550.127.5"))
        .containsEntry("cudaDriverVersion", new AttributeValue.Version("12.4.0"));
    // One bus and one root complex per card: no two cards share either.
    assertThat(cards).extracting(d -> d.attributes().get("resource.kubernetes.io/pciBusID")).doesNotContainNull()
        .doesNotHaveDuplicates();
    assertThat(cards).extracting(d -> d.attributes().get("resource.kubernetes.io/pcieRoot")).doesNotContainNull()
        .doesNotHaveDuplicates();
  }

  @Test
  void withoutGfdsVersionLabelsTheOperatorsDefaultDriverIsAssumed() {
    var a = DRIVER.slice(h100("d")).orElseThrow().devices().getFirst().attributes();
    assertThat(a.get("driverVersion")).isEqualTo(new AttributeValue.Version(
        NvidiaDraDriver.semver(NvidiaDraDriver.DEFAULT_DRIVER_VERSION).orElseThrow()));
    assertThat(a.get("cudaDriverVersion")).isEqualTo(new AttributeValue.Version(
        NvidiaDraDriver.semver(NvidiaDraDriver.DEFAULT_CUDA_DRIVER_VERSION).orElseThrow()));
  }

  @Test
  void aMigDeviceCarriesItsParentCardsCommonAttributes() {
    Device card = DRIVER.slice(h100("m")).orElseThrow().devices().get(1);
    Device mig = DRIVER.slice(h100("m", "nvidia.com/mig.config", "all-1g.10gb")).orElseThrow().devices().get(9);
    assertThat(mig.name()).startsWith("gpu-1-mig-");
    for (String shared : List.of("productName", "brand", "architecture", "cudaComputeCapability", "driverVersion",
        "cudaDriverVersion", "resource.kubernetes.io/pciBusID", "resource.kubernetes.io/pcieRoot")) {
      assertThat(mig.attributes().get(shared)).as(shared).isNotNull().isEqualTo(card.attributes().get(shared));
    }
  }

  @Test
  void aSelectorOnTheStandardPciAttributePicksThatCard() {
    ResourceSlice s = DRIVER.slice(h100("p")).orElseThrow();
    AttributeValue second = s.devices().get(1).attributes().get("resource.kubernetes.io/pciBusID");
    DraObjects objects = new DraObjects(NvidiaDraDriver.deviceClasses(), List.of(), List.of(), List.of(s));
    ResourceClaim claim = new ResourceClaim("default", "by-bus", new ResourceClaimSpec(List.of(
        new DeviceRequest("gpu", "gpu.nvidia.com", List.of("device.attributes[\"resource.kubernetes.io\"].pciBusID == \""
            + ((AttributeValue.Str) second).value() + "\""), DeviceRequest.AllocationMode.EXACT_COUNT, 1))));
    var outcome = new DeviceAllocator(objects, new CelDeviceSelector()).allocate(List.of(claim), "p", Set.of());
    assertThat(((DeviceAllocator.Outcome.Allocated) outcome).allocations().getFirst().results())
        .extracting(Allocation.Result::device).containsExactly("gpu-1");
  }

  @Test
  void versionsAreWrittenAsTheDriversSemverWritesThem() {
    assertThat(NvidiaDraDriver.semver("12.4")).contains("12.4.0");
    assertThat(NvidiaDraDriver.semver("595.91.07")).contains("595.91.7");
    assertThat(NvidiaDraDriver.semver("12")).isEmpty();
    assertThat(NvidiaDraDriver.semver("550.x.1")).isEmpty();
  }

  @Test
  void aPublishedDeviceNameLeadsBackToItsCardAndMigInstance() {
    Node n = h100("m", "nvidia.com/mig.config", "all-1g.10gb");
    var layout = DRIVER.layout(n, new GpuInventory("m", GpuCatalog.builtIn().find("NVIDIA-H100-80GB-HBM3")
        .orElseThrow(), 2));
    for (Device d : DRIVER.slice(n).orElseThrow().devices()) {
      NvidiaDraDriver.Placement p = NvidiaDraDriver.placement(d.name(), layout).orElseThrow();
      assertThat(p.mig()).isPresent();
      // The UUID the driver gives the device is the one the placement leads to.
      assertThat(d.attributes().get("uuid")).isEqualTo(new AttributeValue.Str(NvidiaDraDriver.uuid("m", p)));
      assertThat(d.attributes().get("parentUUID")).isEqualTo(new AttributeValue.Str(GpuInventory.uuid("m",
          p.gpuIndex())));
    }
    // A whole card's name on a partitioned card, and a name the driver never publishes, lead nowhere.
    assertThat(NvidiaDraDriver.placement("gpu-0", layout)).isEmpty();
    assertThat(NvidiaDraDriver.placement("gpu-0-mig-7g80gb-0-0", layout)).isEmpty();
    assertThat(NvidiaDraDriver.placement("gpu-1", io.gpufleet.model.gpu.MigLayout.NONE))
        .contains(new NvidiaDraDriver.Placement(1, java.util.Optional.empty()));
  }
}
