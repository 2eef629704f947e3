package io.gpufleet.model.dra;

import java.util.List;
import java.util.Objects;

/**
 * One {@code spec.devices.requests[]} entry with {@code exactly}: devices of a class, narrowed by
 * CEL selectors, {@code count} of them ({@code ExactCount}, default 1) or every matching device on
 * the node ({@code All}).
 */
public record DeviceRequest(String name, String deviceClassName, List<String> selectors, AllocationMode allocationMode,
    long count) {

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
  }
}
