package io.gpufleet.model.dra;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A claim's {@code status} as the input records it (a dump of a live cluster): the devices of its
 * {@code allocation} ({@code devices.results[]}) and the consumers it is reserved for
 * ({@code reservedFor[]}). What the API server stores is the truth of "now": a pod bound by
 * {@code spec.nodeName} runs on its claim only where this status allocates it and reserves it for the pod.
 *
 * @param allocation the allocation's results; empty when {@code status.allocation} is not set
 * @param reservedFor {@code status.reservedFor}, in order
 */
public record ClaimStatus(Optional<List<AllocatedDevice>> allocation, List<Consumer> reservedFor) {

  /** One {@code DeviceRequestAllocationResult}: a device given to a request (or {@code request/subrequest}). */
  public record AllocatedDevice(String request, String driver, String pool, String device) {
    public AllocatedDevice {
      Objects.requireNonNull(request, "request");
      Objects.requireNonNull(driver, "driver");
      Objects.requireNonNull(pool, "pool");
      Objects.requireNonNull(device, "device");
    }
  }

  /** A {@code ResourceClaimConsumerReference}; a pod is {@code resource: pods} in the core group. */
  public record Consumer(String apiGroup, String resource, String name, String uid) {
    public Consumer {
      Objects.requireNonNull(apiGroup, "apiGroup");
      Objects.requireNonNull(resource, "resource");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(uid, "uid");
    }

    public boolean isPod(String podName) {
      return apiGroup.isEmpty() && resource.equals("pods") && name.equals(podName);
    }
  }

  public ClaimStatus {
    allocation = allocation.map(List::copyOf);
    reservedFor = List.copyOf(reservedFor);
  }

  /** Whether the status allocates the claim and reserves it for the pod {@code podName} of the claim's namespace. */
  public boolean allocatedFor(String podName) {
    return allocation.isPresent() && reservedFor.stream().anyMatch(c -> c.isPod(podName));
  }
}
