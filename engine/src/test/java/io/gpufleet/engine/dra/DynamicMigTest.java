package io.gpufleet.engine.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.mig.MigManager;
import io.gpufleet.model.dra.CounterSet;
import io.gpufleet.model.dra.Device;
import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.dra.ResourceClaimSpec;
import io.gpufleet.model.dra.ResourceSlice;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** NVIDIA's DRA driver under DynamicMIG: partitionable devices as {@code generateSplitResourceSlices} publishes them. */
class DynamicMigTest {

  private static final NvidiaDraDriver DYNAMIC = new NvidiaDraDriver(GpuCatalog.builtIn(), MigManager.STOCK,
      GpuClaimPreparation.FeatureGates.DEFAULTS.with("DynamicMIG", true).orElseThrow());

  private static Node h100() {
    return Node.of("n", Labels.of("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3", "nvidia.com/gpu.count", "1"),
        List.of(), ResourceList.of("cpu", "48"));
  }

  private static List<ResourceSlice> slices() {
    return DYNAMIC.slices(List.of(h100()));
  }

  @Test
  void theCountersComeFirstThenTheCardWithEveryPlacement() {
    List<ResourceSlice> s = slices();
    assertThat(s).hasSize(2);
    assertThat(s.getFirst().devices()).isEmpty();
    CounterSet set = s.getFirst().sharedCounters().getFirst();
    assertThat(set.name()).isEqualTo("gpu-0-counter-set");
    // The largest multiprocessor count of any profile (7g.80gb: 132) and one counter per memory slice.
    assertThat(set.counters()).containsEntry("multiprocessors", Quantity.of(132))
        .containsEntry("memory-slice-0", Quantity.of(1)).containsEntry("memory-slice-7", Quantity.of(1))
        .doesNotContainKey("memory-slice-8");
    List<Device> devices = s.get(1).devices();
    // The card and 7 + 7 + 4 + 3 + 2 + 1 + 1 placements of the H100's profiles, in name order.
    assertThat(devices).hasSize(26);
    assertThat(devices.getFirst().name()).isEqualTo("gpu-0");
    assertThat(devices.getFirst().consumesCounters().getFirst().counters()).isEqualTo(set.counters());
    Device oneG = devices.stream().filter(d -> d.name().equals("gpu-0-mig-1g10gb-19-3")).findFirst().orElseThrow();
    assertThat(oneG.consumesCounters().getFirst().counters()).containsOnlyKeys("multiprocessors", "memory-slice-3");
    assertThat(oneG.attributes()).doesNotContainKey("uuid").containsKey("parentUUID");
    assertThat(devices).extracting(Device::name).contains("gpu-0-mig-3g40gb-9-0", "gpu-0-mig-3g40gb-9-4",
        "gpu-0-mig-7g80gb-0-0", "gpu-0-mig-1g10gb-me-20-6");
  }

  @Test
  void withoutTheGateTheCardIsOneDeviceAsBefore() {
    assertThat(new NvidiaDraDriver(GpuCatalog.builtIn()).slices(List.of(h100()))).singleElement()
        .satisfies(s -> assertThat(s.devices()).extracting(Device::name).containsExactly("gpu-0"));
  }

  private static ResourceClaim claim(String name, String className, String... selectors) {
    return new ResourceClaim("default", name, new ResourceClaimSpec(List.of(new DeviceRequest("r", className,
        List.of(selectors), DeviceRequest.AllocationMode.EXACT_COUNT, 1))));
  }

  @Test
  void aOneGAndAThreeGShareTheCardAndTheWholeCardIsRefusedWhileTheyHoldIt() {
    DraObjects objects = new DraObjects(NvidiaDraDriver.deviceClasses(), List.of(), List.of(), slices());
    DeviceAllocator allocator = new DeviceAllocator(objects, new CelDeviceSelector());
    DevicesInUse inUse = DevicesInUse.NONE;
    List<String> got = new ArrayList<>();
    for (ResourceClaim c : List.of(
        claim("one", "mig.nvidia.com", "device.attributes['gpu.nvidia.com'].profile == '1g.10gb'"),
        claim("three", "mig.nvidia.com", "device.attributes['gpu.nvidia.com'].profile == '3g.40gb'"))) {
      DeviceAllocator.Outcome o = allocator.allocate(List.of(c), "n", inUse);
      assertThat(o).isInstanceOf(DeviceAllocator.Outcome.Allocated.class);
      var a = ((DeviceAllocator.Outcome.Allocated) o).allocations().getFirst();
      got.add(a.results().getFirst().device());
      inUse = inUse.plus(a);
    }
    assertThat(got).containsExactly("gpu-0-mig-1g10gb-19-0", "gpu-0-mig-3g40gb-9-4");
    assertThat(allocator.allocate(List.of(claim("whole", "gpu.nvidia.com")), "n", inUse))
        .isInstanceOf(DeviceAllocator.Outcome.Unsatisfiable.class);
    assertThat(allocator.allocate(List.of(claim("whole", "gpu.nvidia.com")), "n", Set.of()))
        .isInstanceOf(DeviceAllocator.Outcome.Allocated.class);
  }
}
