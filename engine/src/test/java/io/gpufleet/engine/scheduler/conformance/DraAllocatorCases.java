package io.gpufleet.engine.scheduler.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.dra.Allocation;
import io.gpufleet.engine.dra.CelDeviceSelector;
import io.gpufleet.engine.dra.DeviceAllocator;
import io.gpufleet.model.dra.Device;
import io.gpufleet.model.dra.DeviceClass;
import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.dra.ResourceClaimSpec;
import io.gpufleet.model.dra.ResourceSlice;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The structured allocator's table ({@code k8s.io/dynamic-resource-allocation/structured}, TestAllocator,
 * shared by the stable, incubating and experimental allocators), the cases over node-local slices the
 * twin reads, with upstream's fixtures: classes {@code class-a} and {@code class-b} selecting drivers
 * {@code driver-a} and {@code driver-b}, node {@code node-1}, devices {@code device-1}, ... An expected
 * {@code nil} result is the allocator's unsatisfiable outcome.
 */
final class DraAllocatorCases {
  private DraAllocatorCases() {}

  static final String FILE =
      "staging/src/k8s.io/dynamic-resource-allocation/structured/internal/allocatortesting/allocator_testing.go";
  private static final String PLUGIN = "DRA allocator";
  static final String NODE = "node-1";

  static final List<DeviceClass> CLASSES = List.of(
      new DeviceClass("class-a", List.of("device.driver == \"driver-a\"")),
      new DeviceClass("class-b", List.of("device.driver == \"driver-b\"")));

  /** {@code sliceWithDevices(slice, node-1, pool, driver, device(...)...)}; no names: {@code sliceWithNoDevices}. */
  static ResourceSlice slice(String pool, String driver, String... devices) {
    return new ResourceSlice("slice-1", driver, pool, Optional.of(NODE),
        Arrays.stream(devices).map(d -> new Device(d, Map.of(), Map.of())).toList());
  }

  /** {@code sliceWithOneDevice}: {@code device-1}. */
  private static ResourceSlice oneDevice(String pool, String driver) {
    return slice(pool, driver, "device-1");
  }

  static DeviceRequest exactly(String name, String className, long count) {
    return new DeviceRequest(name, className, List.of(), DeviceRequest.AllocationMode.EXACT_COUNT, count);
  }

  static DeviceRequest all(String name, String className) {
    return new DeviceRequest(name, className, List.of(), DeviceRequest.AllocationMode.ALL, 0);
  }

  static ResourceClaim claim(String name, DeviceRequest... requests) {
    return new ResourceClaim("default", name, new ResourceClaimSpec(List.of(requests)));
  }

  /** {@code req-0} with {@code subReq-0} taking every class-a device, else {@code subReq-1}, one class-b device. */
  private static ResourceClaim allElseOne() {
    return claim("claim-0", DeviceRequest.firstAvailable("req-0",
        List.of(all("subReq-0", "class-a"), exactly("subReq-1", "class-b", 1))));
  }

  /**
   * Allocates on node-1 with {@code allocated} devices in use; each claim's results as
   * {@code request driver/pool/device}, or empty for upstream's nil (no allocation).
   */
  static Optional<List<List<String>>> allocate(List<ResourceClaim> claims, List<ResourceSlice> slices,
      String... allocated) {
    return allocate(new DraObjects(CLASSES, claims, List.of(), slices), claims, allocated);
  }

  /** As above over {@code dra} (the fixture's classes with more objects, such as DeviceTaintRules). */
  static Optional<List<List<String>>> allocate(DraObjects dra, List<ResourceClaim> claims, String... allocated) {
    DeviceAllocator.Outcome o = new DeviceAllocator(dra, new CelDeviceSelector()).allocate(claims, NODE,
        Set.of(allocated));
    if (!(o instanceof DeviceAllocator.Outcome.Allocated a)) {
      assertThat(o).isInstanceOf(DeviceAllocator.Outcome.Unsatisfiable.class);
      return Optional.empty();
    }
    List<List<String>> out = new ArrayList<>();
    for (Allocation al : a.allocations()) {
      assertThat(al.node()).isEqualTo(NODE);
      out.add(al.results().stream().map(r -> r.request() + " " + r.deviceId()).toList());
    }
    return Optional.of(out);
  }

  static void expect(Optional<List<List<String>>> got, List<List<String>> want) {
    assertThat(got).contains(want);
  }

  static void expectNil(Optional<List<List<String>>> got) {
    assertThat(got).isEmpty();
  }

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    c.add(UpstreamCase.of(PLUGIN, FILE, "not-enough-suitable-devices", () -> expectNil(allocate(
        List.of(claim("claim-0", exactly("req-0", "class-a", 1)), claim("claim-0", exactly("req-1", "class-a", 1))),
        List.of(oneDevice("pool-1", "driver-a"))))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "no-claims-to-allocate", () -> expect(allocate(
        List.of(), List.of(oneDevice("pool-1", "driver-a"))), List.of())));
    c.add(UpstreamCase.of(PLUGIN, FILE, "all-devices-single", () -> expect(allocate(
        List.of(claim("claim-0", all("req-0", "class-a"))), List.of(oneDevice("pool-1", "driver-a"))),
        List.of(List.of("req-0 driver-a/pool-1/device-1")))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "all-devices-many", () -> expect(allocate(
        List.of(claim("claim-0", all("req-0", "class-a"))),
        List.of(oneDevice("pool-1", "driver-a"), oneDevice("pool-2", "driver-a"))),
        List.of(List.of("req-0 driver-a/pool-1/device-1", "req-0 driver-a/pool-2/device-1")))));
    List<ResourceSlice> aAndB = List.of(oneDevice("pool-1", "driver-a"), oneDevice("pool-1", "driver-b"));
    c.add(UpstreamCase.of(PLUGIN, FILE, "all-devices-plus-another", () -> expect(allocate(
        List.of(claim("claim-0", all("req-0", "class-a")), claim("claim-1", exactly("req-0", "class-b", 1))), aAndB),
        List.of(List.of("req-0 driver-a/pool-1/device-1"), List.of("req-0 driver-b/pool-1/device-1")))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "all-devices-plus-another-reversed", () -> expect(allocate(
        List.of(claim("claim-1", exactly("req-0", "class-b", 1)), claim("claim-0", all("req-0", "class-a"))), aAndB),
        List.of(List.of("req-0 driver-b/pool-1/device-1"), List.of("req-0 driver-a/pool-1/device-1")))));
    List<ResourceSlice> twoAOneB = List.of(slice("pool-1", "driver-a", "device-1", "device-2"),
        oneDevice("pool-1", "driver-b"));
    c.add(UpstreamCase.of(PLUGIN, FILE, "all-devices-many-plus-another", () -> expect(allocate(
        List.of(claim("claim-0", all("req-0", "class-a")), claim("claim-1", exactly("req-0", "class-b", 1))), twoAOneB),
        List.of(List.of("req-0 driver-a/pool-1/device-1", "req-0 driver-a/pool-1/device-2"),
            List.of("req-0 driver-b/pool-1/device-1")))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "all-devices-many-plus-another-reversed", () -> expect(allocate(
        List.of(claim("claim-1", exactly("req-0", "class-b", 1)), claim("claim-0", all("req-0", "class-a"))), twoAOneB),
        List.of(List.of("req-0 driver-b/pool-1/device-1"),
            List.of("req-0 driver-a/pool-1/device-1", "req-0 driver-a/pool-1/device-2")))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "all-devices-no-solution", () -> expectNil(allocate(
        List.of(claim("claim-1", exactly("req-0", "class-a", 1)), claim("claim-0", all("req-0", "class-a"))),
        List.of(oneDevice("pool-1", "driver-a"))))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "all-devices-no-solution-reversed", () -> expectNil(allocate(
        List.of(claim("claim-0", all("req-0", "class-a")), claim("claim-1", exactly("req-0", "class-a", 1))),
        List.of(oneDevice("pool-1", "driver-a"))))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "all-devices-slice-without-devices", () -> expectNil(allocate(
        List.of(claim("claim-0", all("req-0", "class-a"))), List.of(slice("pool-1", "driver-a"))))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "all-devices-no-slices", () -> expectNil(allocate(
        List.of(claim("claim-0", all("req-0", "class-a"))), List.of()))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "all-devices-some-allocated", () -> expectNil(allocate(
        List.of(claim("claim-0", all("req-0", "class-a"))), List.of(slice("pool-1", "driver-a", "device-1", "device-2")),
        "driver-a/pool-1/device-1"))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "all-devices-slice-without-devices-prioritized-list", () -> expect(allocate(
        List.of(allElseOne()), List.of(slice("pool-1", "driver-a"), oneDevice("pool-2", "driver-b"))),
        List.of(List.of("req-0/subReq-1 driver-b/pool-2/device-1")))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "all-devices-no-slices-prioritized-list", () -> expect(allocate(
        List.of(allElseOne()), List.of(oneDevice("pool-2", "driver-b"))),
        List.of(List.of("req-0/subReq-1 driver-b/pool-2/device-1")))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "all-devices-some-allocated-prioritized-list", () -> expect(allocate(
        List.of(allElseOne()), List.of(slice("pool-1", "driver-a", "device-1", "device-2"),
            oneDevice("pool-2", "driver-b")), "driver-a/pool-1/device-1"),
        List.of(List.of("req-0/subReq-1 driver-b/pool-2/device-1")))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "several-different-drivers", () -> expect(allocate(
        List.of(claim("claim-0", exactly("req-0", "class-a", 1)), claim("claim-0", exactly("req-0", "class-b", 1))),
        List.of(slice("pool-1", "driver-a", "device-1", "device-2"), oneDevice("pool-1", "driver-b"))),
        List.of(List.of("req-0 driver-a/pool-1/device-1"), List.of("req-0 driver-b/pool-1/device-1")))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "already-allocated-devices", () -> expectNil(allocate(
        List.of(claim("claim-0", exactly("req-0", "class-a", 1))), List.of(oneDevice("pool-1", "driver-a")),
        "driver-a/pool-1/device-1", "driver-a/pool-1/device-2"))));
    return c;
  }
}
