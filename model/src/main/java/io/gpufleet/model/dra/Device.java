package io.gpufleet.model.dra;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One device of a ResourceSlice: its name in the pool, its attributes and its capacities (the
 * quantity as written, e.g. {@code 81559Mi}), and the taints its driver wrote on it. Attribute and
 * capacity names are as the slice writes them: an unqualified name belongs to the slice's driver's domain.
 * A partitionable device (DRAPartitionableDevices) also names the pool's counter sets it draws from
 * ({@code consumesCounters}, each a {@link CounterSet} of the amounts it takes) and, in a slice with
 * {@code perDeviceNodeSelection}, its own {@code nodeName}. A device with {@code allowMultipleAllocations}
 * (DRAConsumableCapacity) may be allocated to several requests at once, each consuming part of its
 * capacities ({@code requestPolicies}).
 */
public record Device(String name, Map<String, AttributeValue> attributes, Map<String, String> capacity,
    List<CounterSet> consumesCounters, Optional<String> nodeName, boolean allowMultipleAllocations,
    Map<String, RequestPolicy> requestPolicies, List<DeviceTaint> taints) {

  public Device {
    Objects.requireNonNull(name, "name");
    attributes = Collections.unmodifiableMap(new TreeMap<>(attributes));
    capacity = Collections.unmodifiableMap(new TreeMap<>(capacity));
    consumesCounters = List.copyOf(consumesCounters);
    nodeName = nodeName == null ? Optional.empty() : nodeName;
    requestPolicies = Collections.unmodifiableMap(new TreeMap<>(requestPolicies));
    taints = List.copyOf(taints);
  }

  /** An untainted device that is neither partitionable nor shareable. */
  public Device(String name, Map<String, AttributeValue> attributes, Map<String, String> capacity) {
    this(name, attributes, capacity, List.of());
  }

  /** A device that is neither partitionable nor shareable, with its driver's taints. */
  public Device(String name, Map<String, AttributeValue> attributes, Map<String, String> capacity,
      List<DeviceTaint> taints) {
    this(name, attributes, capacity, List.of(), Optional.empty(), false, Map.of(), taints);
  }

  /** An untainted device, partitionable or shareable as given. */
  public Device(String name, Map<String, AttributeValue> attributes, Map<String, String> capacity,
      List<CounterSet> consumesCounters, Optional<String> nodeName, boolean allowMultipleAllocations,
      Map<String, RequestPolicy> requestPolicies) {
    this(name, attributes, capacity, consumesCounters, nodeName, allowMultipleAllocations, requestPolicies, List.of());
  }

  /** The same device drawing from the pool's counter sets. */
  public Device consuming(List<CounterSet> counters) {
    return new Device(name, attributes, capacity, counters, nodeName, allowMultipleAllocations, requestPolicies,
        taints);
  }

  /** The same device carrying taints {@code t} instead of its own. */
  public Device withTaints(List<DeviceTaint> t) {
    return new Device(name, attributes, capacity, consumesCounters, nodeName, allowMultipleAllocations,
        requestPolicies, t);
  }
}
