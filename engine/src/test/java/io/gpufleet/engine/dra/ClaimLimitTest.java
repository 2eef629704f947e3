package io.gpufleet.engine.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.dra.Device;
import io.gpufleet.model.dra.DeviceClass;
import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.dra.ResourceClaimSpec;
import io.gpufleet.model.dra.ResourceSlice;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code AllocationResultsMaxSize}: at most 32 devices per claim, refused by the allocator in
 * structured/allocator.go's words before any search (so no deep search over thousands of devices).
 */
class ClaimLimitTest {

  /** One node with {@code n} devices, sliced 128 to a slice as the API server allows. */
  private static DraObjects node(int n) {
    List<ResourceSlice> slices = new ArrayList<>();
    for (int s = 0; s * 128 < n; s++) {
      List<Device> devices = new ArrayList<>();
      for (int i = s * 128; i < Math.min(n, (s + 1) * 128); i++) {
        devices.add(new Device("d" + i, Map.of(), Map.of()));
      }
      slices.add(new ResourceSlice("s" + s, "gpu.example.com", "p" + s, Optional.of("n"), devices));
    }
    return new DraObjects(List.of(new DeviceClass("c", List.of())), List.of(), List.of(), slices);
  }

  private static DeviceAllocator.Outcome allocate(DraObjects dra, DeviceRequest... requests) {
    ResourceClaim claim = new ResourceClaim("default", "big", new ResourceClaimSpec(List.of(requests)));
    return new DeviceAllocator(dra, new CelDeviceSelector()).allocate(List.of(claim), "n", Set.of());
  }

  private static DeviceRequest exactly(String name, long count) {
    return new DeviceRequest(name, "c", List.of(), DeviceRequest.AllocationMode.EXACT_COUNT, count);
  }

  @Test
  void thirtyTwoDevicesAreAllocatedThirtyThreeAreRefusedWithUpstreamsWords() {
    assertThat(allocate(node(64), exactly("a", 32))).isInstanceOf(DeviceAllocator.Outcome.Allocated.class);
    assertThat(allocate(node(64), exactly("a", 20), exactly("b", 13))).isEqualTo(new DeviceAllocator.Outcome.Failed(
        "claim default/big: number of requested devices 33 exceeds the claim limit of 32"));
  }

  @Test
  void allocationModeAllCountsTheMatchingDevices() {
    DeviceRequest all = new DeviceRequest("a", "c", List.of(), DeviceRequest.AllocationMode.ALL, 1);
    assertThat(allocate(node(32), all)).isInstanceOf(DeviceAllocator.Outcome.Allocated.class);
    assertThat(allocate(node(33), all)).isEqualTo(new DeviceAllocator.Outcome.Failed(
        "claim default/big: number of requested devices 33 exceeds the claim limit of 32"));
  }

  @Test
  void theIssuesThousandsOfDevicesEndInTheErrorNotAStackOverflow() {
    // Issue 33: a claim of 1,024 devices was allocated, and beyond 5,120 the search overflowed the stack.
    assertThat(allocate(node(6000), exactly("a", 6000))).isEqualTo(new DeviceAllocator.Outcome.Failed(
        "claim default/big: number of requested devices 6000 exceeds the claim limit of 32"));
    assertThat(allocate(node(2048), exactly("a", 1024))).isInstanceOf(DeviceAllocator.Outcome.Failed.class);
  }
}
