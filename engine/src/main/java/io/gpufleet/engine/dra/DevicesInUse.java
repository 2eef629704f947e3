package io.gpufleet.engine.dra;

import io.gpufleet.model.resource.Quantity;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the allocated claims hold: devices given whole ({@code allocatedDevices} upstream) and, for
 * devices with {@code allowMultipleAllocations}, the capacity their shares consume together
 * ({@code allocatedCapacityDevices}, DRAConsumableCapacity). Device ids are {@code driver/pool/device}.
 */
public record DevicesInUse(Set<String> dedicated, Map<String, Map<String, Quantity>> shared) {

  public static final DevicesInUse NONE = new DevicesInUse(Set.of(), Map.of());

  public DevicesInUse {
    dedicated = Collections.unmodifiableSet(new TreeSet<>(dedicated));
    Map<String, Map<String, Quantity>> copy = new TreeMap<>();
    shared.forEach((k, v) -> copy.put(k, Collections.unmodifiableMap(new TreeMap<>(v))));
    shared = Collections.unmodifiableMap(copy);
  }

  /** Devices given whole, none shared. */
  public static DevicesInUse dedicated(Set<String> ids) {
    return new DevicesInUse(ids, Map.of());
  }

  /** Whether the device is held by any claim, whole or in part. */
  public boolean holds(String deviceId) {
    return dedicated.contains(deviceId) || shared.containsKey(deviceId);
  }

  /** These devices and those {@code allocation} holds. */
  public DevicesInUse plus(Allocation allocation) {
    Set<String> d = new TreeSet<>(dedicated);
    Map<String, Map<String, Quantity>> s = new LinkedHashMap<>();
    shared.forEach((k, v) -> s.put(k, new TreeMap<>(v)));
    for (Allocation.Result r : allocation.results()) {
      if (r.consumedCapacity().isEmpty()) {
        d.add(r.deviceId());
      } else {
        Map<String, Quantity> sum = s.computeIfAbsent(r.deviceId(), k -> new TreeMap<>());
        r.consumedCapacity().get().forEach((name, q) -> sum.merge(name, q, Quantity::plus));
      }
    }
    return new DevicesInUse(d, s);
  }
}
