package io.gpufleet.model.dra;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One device of a ResourceSlice: its name in the pool, its attributes and its capacities (the
 * quantity as written, e.g. {@code 81559Mi}), and the taints its driver wrote on it. Attribute and
 * capacity names are as the slice writes them: an unqualified name belongs to the slice's driver's domain.
 */
public record Device(String name, Map<String, AttributeValue> attributes, Map<String, String> capacity,
    List<DeviceTaint> taints) {

  public Device {
    Objects.requireNonNull(name, "name");
    attributes = Collections.unmodifiableMap(new TreeMap<>(attributes));
    capacity = Collections.unmodifiableMap(new TreeMap<>(capacity));
    taints = List.copyOf(taints);
  }

  /** An untainted device. */
  public Device(String name, Map<String, AttributeValue> attributes, Map<String, String> capacity) {
    this(name, attributes, capacity, List.of());
  }

  public Device withTaints(List<DeviceTaint> t) {
    return new Device(name, attributes, capacity, t);
  }
}
