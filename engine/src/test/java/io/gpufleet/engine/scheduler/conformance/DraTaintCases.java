package io.gpufleet.engine.scheduler.conformance;

import static io.gpufleet.engine.scheduler.conformance.DraAllocatorCases.all;
import static io.gpufleet.engine.scheduler.conformance.DraAllocatorCases.allocate;
import static io.gpufleet.engine.scheduler.conformance.DraAllocatorCases.claim;
import static io.gpufleet.engine.scheduler.conformance.DraAllocatorCases.exactly;
import static io.gpufleet.engine.scheduler.conformance.DraAllocatorCases.expect;
import static io.gpufleet.engine.scheduler.conformance.DraAllocatorCases.expectNil;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.FitError;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.engine.scheduler.plugin.DynamicResources;
import io.gpufleet.engine.scheduler.plugin.FilterPlugin;
import io.gpufleet.model.dra.Device;
import io.gpufleet.model.dra.DeviceClass;
import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.DeviceTaint;
import io.gpufleet.model.dra.DeviceToleration;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.PodResourceClaim;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.dra.ResourceClaimSpec;
import io.gpufleet.model.dra.ResourceSlice;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * TestAllocator's device taint cases ({@code allocator_testing.go}, with the DRADeviceTaints feature
 * on, as it is by default in the Kubernetes the twin follows), with upstream's fixtures:
 * {@code taintNoSchedule} ({@code taint-key=taint-value:NoSchedule}), {@code taintNoExecute}
 * ({@code taint-key=taint-value-2:NoExecute}), {@code taintNone}, {@code tolerationNoSchedule}
 * (Exists taint-key NoSchedule) and {@code tolerationNoExecute} (Equal taint-key=taint-value-2
 * NoExecute). Not translated: the "-disabled" variants (the feature cannot be turned off in the
 * twin) and "tainted-admin-access" (adminAccess is not modelled); the two partitionable-device taint
 * cases are in {@link DraPartitionCases}, counted in this row. And TestPlugin's "tainted-device-enabled"
 * ({@code dynamicresources_test.go}), which checks that DynamicResources hands the taints to the
 * allocator ("tainted-device-disabled" turns the feature off, which the twin cannot).
 */
final class DraTaintCases {
  private DraTaintCases() {}

  private static final String PLUGIN = "DRA device taints";

  private static final DeviceTaint NO_SCHEDULE = new DeviceTaint("taint-key", "taint-value",
      DeviceTaint.Effect.NO_SCHEDULE);
  private static final DeviceTaint NO_EXECUTE = new DeviceTaint("taint-key", "taint-value-2",
      DeviceTaint.Effect.NO_EXECUTE);
  private static final DeviceTaint NONE = new DeviceTaint("taint-key", "taint-value", DeviceTaint.Effect.NONE);
  private static final DeviceToleration TOLERATE_NO_SCHEDULE = new DeviceToleration("taint-key",
      DeviceToleration.Operator.EXISTS, "", Optional.of(DeviceTaint.Effect.NO_SCHEDULE), Optional.empty());
  private static final DeviceToleration TOLERATE_NO_EXECUTE = new DeviceToleration("taint-key",
      DeviceToleration.Operator.EQUAL, "taint-value-2", Optional.of(DeviceTaint.Effect.NO_EXECUTE), Optional.empty());

  /** {@code device(name, nil, nil).withTaints(...)}. */
  private static Device device(String name, DeviceTaint... taints) {
    return new Device(name, Map.of(), Map.of(), List.of(taints));
  }

  /** {@code sliceWithDevices(slice-1, node-1, pool-1, driver-a, ...)}. */
  private static List<ResourceSlice> slice(Device... devices) {
    return List.of(new ResourceSlice("slice-1", "driver-a", "pool-1", Optional.of(DraAllocatorCases.NODE),
        List.of(devices)));
  }

  /** {@code claimWithRequest(claim-0, req-0, class-a)}, with {@code withTolerations(...)}. */
  private static DeviceRequest req0(DeviceToleration... tolerations) {
    return exactly("req-0", "class-a", 1).withTolerations(List.of(tolerations));
  }

  static List<UpstreamCase> cases() {
    String file = DraAllocatorCases.FILE;
    List<UpstreamCase> c = new ArrayList<>();
    List<ResourceSlice> twoDevices = slice(device("device-1", NO_SCHEDULE), device("device-2", NO_EXECUTE));
    c.add(UpstreamCase.of(PLUGIN, file, "tainted-two-devices", () -> expectNil(allocate(
        List.of(claim("claim-0", req0())), twoDevices))));
    c.add(UpstreamCase.of(PLUGIN, file, "tainted-one-device-two-taints", () -> expectNil(allocate(
        List.of(claim("claim-0", req0())), slice(device("device-1", NO_SCHEDULE, NO_EXECUTE))))));
    // Only the second device's taint is tolerated.
    c.add(UpstreamCase.of(PLUGIN, file, "tainted-two-devices-tolerated", () -> expect(allocate(
        List.of(claim("claim-0", req0(TOLERATE_NO_EXECUTE))), twoDevices),
        List.of(List.of("req-0 driver-a/pool-1/device-2")))));
    c.add(UpstreamCase.of(PLUGIN, file, "tainted-two-devices-prioritized-list-tolerated", () -> expect(allocate(
        List.of(claim("claim-0", DeviceRequest.firstAvailable("req-0", List.of(exactly("subReq-0", "class-a", 1),
            exactly("subReq-1", "class-a", 1).withTolerations(List.of(TOLERATE_NO_EXECUTE)))))), twoDevices),
        List.of(List.of("req-0/subReq-1 driver-a/pool-1/device-2")))));
    c.add(UpstreamCase.of(PLUGIN, file, "tainted-no-effect", () -> expect(allocate(
        List.of(claim("claim-0", req0())), slice(device("device-1", NONE))),
        List.of(List.of("req-0 driver-a/pool-1/device-1")))));
    c.add(UpstreamCase.of(PLUGIN, file, "tainted-one-device-two-taints-both-tolerated", () -> expect(allocate(
        List.of(claim("claim-0", req0(TOLERATE_NO_SCHEDULE, TOLERATE_NO_EXECUTE))),
        slice(device("device-1", NO_SCHEDULE, NO_EXECUTE))),
        List.of(List.of("req-0 driver-a/pool-1/device-1")))));
    c.add(UpstreamCase.of(PLUGIN, file, "tainted-prioritized-list", () -> expectNil(allocate(
        List.of(claim("claim-0", DeviceRequest.firstAvailable("req-0", List.of(exactly("subReq-0", "class-b", 1),
            exactly("subReq-1", "class-a", 1))))), slice(device("device-1", NO_SCHEDULE))))));
    c.add(UpstreamCase.of(PLUGIN, file, "tainted-all-devices-single", () -> expectNil(allocate(
        List.of(claim("claim-0", all("req-0", "class-a"))), slice(device("device-1", NO_SCHEDULE))))));
    // dynamicresources_test.go TestPlugin: the plugin passes the taints through to the allocator.
    c.add(UpstreamCase.of(PLUGIN, DynamicResourcesCases.FILE, "tainted-device-enabled", () -> {
      // pendingClaim (req-1 of my-resource-class) and taintDevices(workerNodeSlice): instance-1 tainted
      // taint-key=taint-value:NoSchedule.
      ResourceClaim pending = new ResourceClaim("default", "my-pod-my-resource", new ResourceClaimSpec(List.of(
          new DeviceRequest("req-1", "my-resource-class", List.of(), DeviceRequest.AllocationMode.EXACT_COUNT, 1))));
      ResourceSlice tainted = new ResourceSlice("worker-slice", "some-driver", "worker", Optional.of("worker"),
          List.of(device("instance-1", NO_SCHEDULE)));
      DynamicResources plugin = new DynamicResources(new DraObjects(List.of(new DeviceClass("my-resource-class",
          List.of("device.driver == 'some-driver'"))), List.of(pending), List.of(), List.of(tainted)));
      Pod pod = K.pod("my-pod");
      pod = pod.withSpec(pod.spec().withResourceClaims(List.of(new PodResourceClaim.Named("my-resource",
          "my-pod-my-resource"))));
      NodeInfo worker = K.info(K.node("worker"));
      ClusterSnapshot snapshot = K.snapshot(worker);
      FilterPlugin cycle = plugin.forCycle(PodInfo.of(pod), snapshot).orElseThrow();
      K.assertFilter(cycle, pod, worker, Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "cannot allocate all claims");
      assertThat(plugin.postFilter(PodInfo.of(pod), snapshot, FitError.ofCounts(1, Map.of(), "")).message())
          .isEqualTo("still not schedulable");
    }));
    return c;
  }
}
