package io.gpufleet.engine.dra;

import java.util.List;

/**
 * A claim's {@code status.allocation}: the node its devices are on and one result per device
 * ({@code request}, {@code driver}, {@code pool}, {@code device}, as {@code DeviceRequestAllocationResult}).
 */
public record Allocation(String claimKey, String node, List<Result> results) {

  public record Result(String request, String driver, String pool, String device) {
    /** The device's identity across the cluster. */
    public String deviceId() {
      return driver + "/" + pool + "/" + device;
    }
  }

  public Allocation {
    results = List.copyOf(results);
  }
}
