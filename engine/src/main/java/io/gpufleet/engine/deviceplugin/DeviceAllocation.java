package io.gpufleet.engine.deviceplugin;

import io.gpufleet.model.deviceplugin.AllocationPolicy;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The kubelet's device manager and the plugin's {@code GetPreferredAllocation} and
 * {@code Allocate} for one pod: each app container, for each GPU-like resource it requests, gets
 * that many free devices. Replicas are chosen by the sharing policy: {@code distributed} takes the
 * GPU with the fewest replicas handed out, {@code packed} the most ({@code internal/rm/allocate.go},
 * k8s-gpu-semantics §2.2). Whole GPUs and MIG devices go lowest index first (the real plugin also
 * weighs NVLink topology, which gpufleet does not model).
 */
public final class DeviceAllocation {
  private DeviceAllocation() {}

  /** The kubelet's admission outcome. */
  public sealed interface Result {

    /** The pod's containers hold these devices; {@code next} is the node's device state after. */
    record Granted(NodeDevices next, List<ContainerDevices> containers) implements Result {
      public Granted {
        containers = List.copyOf(containers);
      }
    }

    /**
     * {@code Allocate} failed: the pod ends in phase Failed with reason {@code UnexpectedAdmissionError}
     * and must be recreated by hand (k8s-gpu-semantics §2.2).
     */
    record Refused(String reason, String message) implements Result {}
  }

  public static final String ADMISSION_ERROR = "UnexpectedAdmissionError";

  public static Result allocate(NodeDevices state, Pod pod) {
    Set<String> taken = new HashSet<>(state.allocatedIds());
    List<ContainerDevices> out = new ArrayList<>();
    for (Container c : pod.spec().containers()) {
      for (var e : c.effectiveRequests().quantities().entrySet()) {
        ResourceName resource = e.getKey();
        long n = e.getValue().value();
        if (!resource.isNvidiaGpuLike() || n <= 0) {
          continue;
        }
        List<Device> candidates = state.devicesOf(resource).stream().filter(d -> !taken.contains(d.id())).toList();
        boolean shared = candidates.stream().anyMatch(Device::shared)
            || state.devicesOf(resource).stream().anyMatch(Device::shared);
        if (shared && n > 1 && state.sharing().failRequestsGreaterThanOne()) {
          // internal/rm/rm.go ValidateRequest, wrapped by internal/plugin/server.go Allocate (the wording
          // since v0.15) and by the kubelet's admission error.
          return new Result.Refused(ADMISSION_ERROR, "Allocate failed due to rpc error: code = Unknown desc = "
              + "invalid allocation request for \"" + resource + "\": invalid request: maximum request size for "
              + "shared resources is 1; found " + n + ", which is unexpected");
        }
        if (candidates.size() < n) {
          return new Result.Refused(ADMISSION_ERROR, "Allocate failed due to requested number of devices unavailable for "
              + resource + ". Requested: " + n + ", Available: " + candidates.size() + ", which is unexpected");
        }
        List<Device> picked = shared ? preferReplicas(state, candidates, taken, (int) n)
            : candidates.subList(0, (int) n);
        picked.forEach(d -> taken.add(d.id()));
        out.add(new ContainerDevices(pod.key(), c.name(), resource, picked));
      }
    }
    return new Result.Granted(state.withPod(pod.key(), out), out);
  }

  /**
   * Replica choice, one device at a time, counting what this request already took: among free
   * replicas, the GPU (or MIG device) with the fewest ({@code distributed}) or most ({@code packed})
   * replicas in use; ties go to the lower index and replica.
   */
  static List<Device> preferReplicas(NodeDevices state, List<Device> candidates, Set<String> taken, int n) {
    Map<String, Integer> inUse = new HashMap<>();
    for (Device d : state.devices()) {
      if (taken.contains(d.id())) {
        inUse.merge(d.visibleUuid(), 1, Integer::sum);
      }
    }
    List<Device> free = new ArrayList<>(candidates);
    List<Device> picked = new ArrayList<>();
    boolean packed = state.policy() == AllocationPolicy.PACKED;
    // Written out rather than Comparator.comparingInt(..).thenComparing(..), whose lambdas inside
    // java.util the AOT cache does not hold, so that a CLI start makes no classes for them at run time.
    Comparator<Device> order = (a, b) -> {
      int fewer = Integer.compare(inUse.getOrDefault(a.visibleUuid(), 0), inUse.getOrDefault(b.visibleUuid(), 0));
      int c = packed ? -fewer : fewer;
      if (c == 0) {
        c = Integer.compare(a.gpuIndex(), b.gpuIndex());
      }
      if (c == 0) {
        c = a.visibleUuid().compareTo(b.visibleUuid());
      }
      return c != 0 ? c : Integer.compare(a.replica(), b.replica());
    };
    for (int k = 0; k < n; k++) {
      Device best = free.stream().min(order).orElseThrow();
      free.remove(best);
      picked.add(best);
      inUse.merge(best.visibleUuid(), 1, Integer::sum);
    }
    return picked;
  }
}
