package io.gpufleet.model.dra;

import io.gpufleet.model.resource.Quantity;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A ResourceSlice's {@code spec.sharedCounters[]} entry ({@code k8s.io/api/resource/v1} {@code CounterSet},
 * DRAPartitionableDevices): named counters, each with the amount the pool has of it, which the pool's
 * devices consume ({@link CounterConsumption}) when they are allocated. Also one entry of a device's
 * {@code consumesCounters}: the counter set named and how much of each of its counters the device takes.
 */
public record CounterSet(String name, Map<String, Quantity> counters) {

  public CounterSet {
    Objects.requireNonNull(name, "name");
    counters = Collections.unmodifiableMap(new TreeMap<>(counters));
  }
}
