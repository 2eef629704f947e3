package io.gpufleet.engine.scheduler;

import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * Resources in the scheduler's units, flat for the hot loop: cpu in millicores; memory,
 * ephemeral storage and every other resource in whole units (rounded up, as
 * {@code Quantity.Value()}); {@code pods} as a count. Scalar (extended) resources sit in two
 * parallel arrays sorted by name. Immutable.
 */
public final class ResourceVector {

  public static final ResourceVector ZERO = new ResourceVector(0, 0, 0, 0, new String[0], new long[0]);

  private final long milliCpu;
  private final long memory;
  private final long ephemeralStorage;
  private final long pods;
  private final String[] scalarNames;
  private final long[] scalarValues;

  private ResourceVector(long milliCpu, long memory, long ephemeralStorage, long pods, String[] scalarNames,
      long[] scalarValues) {
    this.milliCpu = milliCpu;
    this.memory = memory;
    this.ephemeralStorage = ephemeralStorage;
    this.pods = pods;
    this.scalarNames = scalarNames;
    this.scalarValues = scalarValues;
  }

  public static ResourceVector of(ResourceList list) {
    long cpu = 0;
    long mem = 0;
    long eph = 0;
    long pods = 0;
    int scalars = 0;
    for (ResourceName n : list.names()) {
      if (isScalar(n)) {
        scalars++;
      }
    }
    String[] names = new String[scalars];
    long[] values = new long[scalars];
    int i = 0;
    // ResourceList iterates cpu, memory, ephemeral-storage, pods, then the rest by name.
    for (Map.Entry<ResourceName, Quantity> e : list.quantities().entrySet()) {
      ResourceName n = e.getKey();
      Quantity q = e.getValue();
      switch (n.name()) {
        case "cpu" -> cpu = q.milliValue();
        case "memory" -> mem = q.value();
        case "ephemeral-storage" -> eph = q.value();
        case "pods" -> pods = q.value();
        default -> {
          if (isScalar(n)) {
            names[i] = n.name();
            values[i] = q.value();
            i++;
          }
        }
      }
    }
    return new ResourceVector(cpu, mem, eph, pods, names, values);
  }

  /**
   * Resources the fit check counts beyond cpu, memory, storage and pods: upstream's
   * {@code IsScalarResourceName} (extended, hugepages, prefixed native such as
   * {@code kubernetes.io/...}, attachable volumes).
   */
  static boolean isScalar(ResourceName n) {
    return n.isExtended() || n.isHugePages() || n.name().contains("kubernetes.io/")
        || n.name().startsWith("attachable-volumes-");
  }

  public long milliCpu() {
    return milliCpu;
  }

  public long memory() {
    return memory;
  }

  public long ephemeralStorage() {
    return ephemeralStorage;
  }

  public long pods() {
    return pods;
  }

  public int scalarCount() {
    return scalarNames.length;
  }

  public String scalarName(int i) {
    return scalarNames[i];
  }

  public long scalarValue(int i) {
    return scalarValues[i];
  }

  /** The amount of a resource in scheduler units, zero when absent. */
  public long get(String name) {
    return switch (name) {
      case "cpu" -> milliCpu;
      case "memory" -> memory;
      case "ephemeral-storage" -> ephemeralStorage;
      case "pods" -> pods;
      default -> scalar(name);
    };
  }

  public long scalar(String name) {
    for (int i = 0; i < scalarNames.length; i++) {
      if (scalarNames[i].equals(name)) {
        return scalarValues[i];
      }
    }
    return 0;
  }

  public boolean hasScalars() {
    return scalarNames.length > 0;
  }

  /** True when every amount is zero (a BestEffort-like request). */
  public boolean isZero() {
    if (milliCpu != 0 || memory != 0 || ephemeralStorage != 0) {
      return false;
    }
    for (long v : scalarValues) {
      if (v != 0) {
        return false;
      }
    }
    return true;
  }

  public ResourceVector plus(ResourceVector o) {
    return combine(o, 1);
  }

  public ResourceVector minus(ResourceVector o) {
    return combine(o, -1);
  }

  private ResourceVector combine(ResourceVector o, long sign) {
    String[] names;
    long[] values;
    if (Arrays.equals(scalarNames, o.scalarNames)) {
      names = scalarNames;
      values = scalarValues.clone();
      for (int i = 0; i < values.length; i++) {
        values[i] += sign * o.scalarValues[i];
      }
    } else {
      TreeMap<String, Long> m = new TreeMap<>();
      for (int i = 0; i < scalarNames.length; i++) {
        m.merge(scalarNames[i], scalarValues[i], Long::sum);
      }
      for (int i = 0; i < o.scalarNames.length; i++) {
        m.merge(o.scalarNames[i], sign * o.scalarValues[i], Long::sum);
      }
      names = m.keySet().toArray(String[]::new);
      values = new long[names.length];
      int i = 0;
      for (long v : m.values()) {
        values[i++] = v;
      }
    }
    return new ResourceVector(milliCpu + sign * o.milliCpu, memory + sign * o.memory,
        ephemeralStorage + sign * o.ephemeralStorage, pods + sign * o.pods, names, values);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ResourceVector v && milliCpu == v.milliCpu && memory == v.memory
        && ephemeralStorage == v.ephemeralStorage && pods == v.pods
        && scalarsEqual(this, v) && scalarsEqual(v, this);
  }

  /** Equal up to names that are zero on one side and absent on the other. */
  private static boolean scalarsEqual(ResourceVector a, ResourceVector b) {
    for (int i = 0; i < a.scalarNames.length; i++) {
      if (a.scalarValues[i] != b.scalar(a.scalarNames[i])) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(milliCpu) * 31 + Long.hashCode(memory);
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("{cpu: ").append(milliCpu).append("m, memory: ").append(memory)
        .append(", ephemeral-storage: ").append(ephemeralStorage).append(", pods: ").append(pods);
    for (int i = 0; i < scalarNames.length; i++) {
      b.append(", ").append(scalarNames[i]).append(": ").append(scalarValues[i]);
    }
    return b.append('}').toString();
  }
}
