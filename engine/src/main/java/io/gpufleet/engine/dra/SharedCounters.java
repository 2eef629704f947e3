package io.gpufleet.engine.dra;

import io.gpufleet.model.dra.CounterSet;
import io.gpufleet.model.dra.Device;
import io.gpufleet.model.dra.ResourceSlice;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The counters of partitionable devices' pools (DRAPartitionableDevices,
 * {@code k8s.io/dynamic-resource-allocation/structured}, {@code pools.go} and the allocator's
 * {@code checkAvailableCounters}): a pool's counter sets are the {@code sharedCounters} of all its
 * slices, on any node; a device draws from them when allocated, and a device whose draw exceeds what
 * the allocated devices of the pool leave cannot be allocated. A device holds its draw once however
 * many shares of it are allocated. A pool is invalid when two of its slices name the same counter
 * set, or a device names a counter set or a counter its pool lacks; its devices are then not
 * allocated ({@code validatePool}).
 *
 * <p>One instance lives for one allocation attempt: {@link #take} and {@link #give} follow the
 * allocator's search and its backtracking.
 */
final class SharedCounters {

  /** {@code driver/pool} to its counter sets by name to each counter's amount left. */
  private final Map<String, Map<String, Map<String, BigDecimal>>> left = new HashMap<>();
  private final Set<String> invalid = new HashSet<>();

  /** The counters of every pool in {@code slices}, less what the devices in use ({@code inUse}) draw. */
  SharedCounters(List<ResourceSlice> slices, DevicesInUse inUse) {
    Map<String, List<ResourceSlice>> pools = new LinkedHashMap<>();
    for (ResourceSlice s : slices) {
      pools.computeIfAbsent(poolId(s.driver(), s.pool()), k -> new ArrayList<>()).add(s);
    }
    for (var e : pools.entrySet()) {
      Map<String, Map<String, BigDecimal>> sets = new HashMap<>();
      for (ResourceSlice s : e.getValue()) {
        for (CounterSet c : s.sharedCounters()) {
          Map<String, BigDecimal> amounts = new HashMap<>();
          c.counters().forEach((name, q) -> amounts.put(name, q.amount()));
          if (sets.put(c.name(), amounts) != null) {
            invalid.add(e.getKey());
          }
        }
      }
      left.put(e.getKey(), sets);
      for (ResourceSlice s : e.getValue()) {
        for (Device d : s.devices()) {
          if (!fits(sets, d.consumesCounters(), true)) {
            invalid.add(e.getKey());
          }
        }
      }
      if (invalid.contains(e.getKey())) {
        continue;
      }
      for (ResourceSlice s : e.getValue()) {
        for (Device d : s.devices()) {
          if (inUse.holds(e.getKey() + "/" + d.name())) {
            draw(sets, d.consumesCounters(), -1);
          }
        }
      }
    }
  }

  static String poolId(String driver, String pool) {
    return driver + "/" + pool;
  }

  /** Whether the pool failed validation: its devices are not allocatable. */
  boolean invalid(String driver, String pool) {
    return invalid.contains(poolId(driver, pool));
  }

  boolean anyInvalid() {
    return !invalid.isEmpty();
  }

  /** Takes the device's draw if the pool has it left; false, taking nothing, otherwise. */
  boolean take(String driver, String pool, Device device) {
    Map<String, Map<String, BigDecimal>> sets = left.getOrDefault(poolId(driver, pool), Map.of());
    if (!fits(sets, device.consumesCounters(), false)) {
      return false;
    }
    draw(sets, device.consumesCounters(), -1);
    return true;
  }

  /** Gives back what {@link #take} took. */
  void give(String driver, String pool, Device device) {
    draw(left.getOrDefault(poolId(driver, pool), Map.of()), device.consumesCounters(), 1);
  }

  /**
   * Whether every counter drawn exists in {@code sets} and, unless {@code existenceOnly}, has at least
   * the amount drawn left.
   */
  private static boolean fits(Map<String, Map<String, BigDecimal>> sets, List<CounterSet> draws,
      boolean existenceOnly) {
    for (CounterSet draw : draws) {
      Map<String, BigDecimal> set = sets.get(draw.name());
      if (set == null) {
        return false;
      }
      for (var c : draw.counters().entrySet()) {
        BigDecimal have = set.get(c.getKey());
        if (have == null || !existenceOnly && have.compareTo(c.getValue().amount()) < 0) {
          return false;
        }
      }
    }
    return true;
  }

  private static void draw(Map<String, Map<String, BigDecimal>> sets, List<CounterSet> draws, int sign) {
    for (CounterSet draw : draws) {
      Map<String, BigDecimal> set = sets.get(draw.name());
      if (set == null) {
        continue;
      }
      for (var c : draw.counters().entrySet()) {
        BigDecimal q = c.getValue().amount();
        set.computeIfPresent(c.getKey(), (k, v) -> sign < 0 ? v.subtract(q) : v.add(q));
      }
    }
  }
}
