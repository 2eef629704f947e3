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
}
