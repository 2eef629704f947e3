package io.gpufleet.model.dra;

import io.gpufleet.model.resource.Quantity;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One {@code spec.devices.requests[]} entry. With {@code exactly}: devices of a class, narrowed by
 * CEL selectors, {@code count} of them ({@code ExactCount}, default 1) or every matching device on
 * the node ({@code All}). With {@code firstAvailable} (DRAPrioritizedList): ordered subrequests of
 * that same shape, of which the allocator uses the first it can satisfy; the request's own class,
 * selectors and count are then unset ({@code deviceClassName} empty). {@code capacity} is
 * {@code capacity.requests} (DRAConsumableCapacity): how much of each capacity of a shareable device
 * the request consumes. {@code tolerations} are the device taints it tolerates (DRADeviceTaints).
 */
public record DeviceRequest(String name, String deviceClassName, List<String> selectors, AllocationMode allocationMode,
    long count, List<DeviceRequest> firstAvailable, Map<String, Quantity> capacity,
    List<DeviceToleration> tolerations) {

  /**
   * {@code FirstAvailableDeviceRequestMaxSize} ({@code k8s.io/api/resource/v1}): the most subrequests a
   * request may list; the API server refuses more, and the scheduler scores subrequest {@code i} as
   * {@code FIRST_AVAILABLE_MAX_SIZE - i}.
   */
  public static final int FIRST_AVAILABLE_MAX_SIZE = 8;

  /** {@code exactly.allocationMode}. */
  public enum AllocationMode {
    EXACT_COUNT("ExactCount"), ALL("All");

    private final String wire;

    AllocationMode(String wire) {
      this.wire = wire;
    }

    public String wire() {
      return wire;
    }
  }

  public DeviceRequest {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(deviceClassName, "deviceClassName");
    selectors = List.copyOf(selectors);
    Objects.requireNonNull(allocationMode, "allocationMode");
    firstAvailable = List.copyOf(firstAvailable);
    capacity = Collections.unmodifiableMap(new TreeMap<>(capacity));
    tolerations = List.copyOf(tolerations);
    if (!firstAvailable.isEmpty() && !tolerations.isEmpty()) {
      throw new IllegalArgumentException("request " + name + ": firstAvailable's subrequests carry the tolerations");
    }
    if (!firstAvailable.isEmpty() && (!deviceClassName.isEmpty() || !selectors.isEmpty())) {
      throw new IllegalArgumentException("request " + name + ": firstAvailable excludes a class and selectors");
    }
    if (firstAvailable.stream().anyMatch(s -> !s.firstAvailable().isEmpty())) {
      throw new IllegalArgumentException("request " + name + ": subrequests do not nest");
    }
  }

  /** An {@code exactly} request, or one subrequest of a {@code firstAvailable} list. */
  public DeviceRequest(String name, String deviceClassName, List<String> selectors, AllocationMode allocationMode,
      long count) {
    this(name, deviceClassName, selectors, allocationMode, count, List.of(), Map.of(), List.of());
  }

  /** As above, or a {@code firstAvailable} request with no tolerations or capacity requests of its own. */
  public DeviceRequest(String name, String deviceClassName, List<String> selectors, AllocationMode allocationMode,
      long count, List<DeviceRequest> firstAvailable) {
    this(name, deviceClassName, selectors, allocationMode, count, firstAvailable, Map.of(), List.of());
  }

  /** The same request consuming {@code requests} of a shareable device's capacities. */
  public DeviceRequest withCapacity(Map<String, Quantity> requests) {
    return new DeviceRequest(name, deviceClassName, selectors, allocationMode, count, firstAvailable, requests,
        tolerations);
  }

  /** The same request tolerating {@code t} (an {@code exactly} request or a subrequest). */
  public DeviceRequest withTolerations(List<DeviceToleration> t) {
    return new DeviceRequest(name, deviceClassName, selectors, allocationMode, count, firstAvailable, capacity, t);
  }

  /** A {@code firstAvailable} request: {@code subrequests} in order of preference. */
  public static DeviceRequest firstAvailable(String name, List<DeviceRequest> subrequests) {
    if (subrequests.isEmpty()) {
      throw new IllegalArgumentException("request " + name + ": firstAvailable needs a subrequest");
    }
    return new DeviceRequest(name, "", List.of(), AllocationMode.EXACT_COUNT, 0, subrequests);
  }

  /**
   * What the allocator may satisfy this request with, in order: its subrequests named
   * {@code <request>/<subrequest>} as the allocation result records them, or the request itself.
   */
  public List<Alternative> alternatives() {
    if (firstAvailable.isEmpty()) {
      return List.of(new Alternative(name, this));
    }
    return firstAvailable.stream().map(s -> new Alternative(name + "/" + s.name(), s)).toList();
  }

  /** One way to satisfy a request: the name its allocation results carry and the devices it asks for. */
  public record Alternative(String resultName, DeviceRequest devices) {
    public Alternative {
      Objects.requireNonNull(resultName, "resultName");
      Objects.requireNonNull(devices, "devices");
    }
  }
}
