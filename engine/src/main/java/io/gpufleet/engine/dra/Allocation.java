package io.gpufleet.engine.dra;

import io.gpufleet.model.dra.ClaimStatus;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.resource.Quantity;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A claim's {@code status.allocation}: the node its devices are on and one result per device
 * ({@code request}, {@code driver}, {@code pool}, {@code device}, as {@code DeviceRequestAllocationResult}).
 */
public record Allocation(String claimKey, String node, List<Result> results) {

  /**
   * One device given to a request. {@code consumedCapacity} is present for a share of a device with
   * {@code allowMultipleAllocations} (a result with a {@code shareID}): what this share consumes of
   * the device's capacities (DRAConsumableCapacity); empty for a device given whole.
   */
  public record Result(String request, String driver, String pool, String device,
      Optional<Map<String, Quantity>> consumedCapacity) {
    public Result {
      consumedCapacity = consumedCapacity.map(m -> Collections.unmodifiableMap(new TreeMap<>(m)));
    }

    /** A device given whole to the request. */
    public Result(String request, String driver, String pool, String device) {
      this(request, driver, pool, device, Optional.empty());
    }

    /** The device's identity across the cluster. */
    public String deviceId() {
      return driver + "/" + pool + "/" + device;
    }

    /** Whether this is one share of a device that several requests may hold. */
    public boolean shared() {
      return consumedCapacity.isPresent();
    }
  }

  public Allocation {
    results = List.copyOf(results);
  }

  /**
   * The allocation a claim's recorded status gives (a dump's {@code status.allocation}), its devices
   * on {@code node}: the node of the pod the status reserves the claim for.
   */
  public static Optional<Allocation> recorded(ResourceClaim claim, String node) {
    return claim.status().flatMap(ClaimStatus::allocation).map(devices -> new Allocation(claim.key(), node,
        devices.stream().map(d -> new Result(d.request(), d.driver(), d.pool(), d.device())).toList()));
  }
}
