package io.gpufleet.autoscaler.requirement;

import io.gpufleet.model.cloud.InstanceLabels;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A conjunction of label requirements, one {@link ValueSet} per key: what Karpenter builds from a
 * NodePool template, a pod's node selector and required affinity, or an instance type's labels, and
 * intersects to decide where a pod may go (reference §1.4). Immutable; keys iterate sorted so the
 * messages it prints are stable.
 */
public final class Requirements {

  public static final Requirements NONE = new Requirements(Collections.emptySortedMap());

  /**
   * Labels a NodePool need not define for a pod to ask for them, since instance types or offerings
   * provide them ({@code AllowUndefinedWellKnownLabels}, reference §1.2).
   */
  public static final Set<String> WELL_KNOWN = Set.of(
      KarpenterLabels.NODEPOOL, KarpenterLabels.CAPACITY_TYPE, InstanceLabels.ZONE, InstanceLabels.REGION,
      InstanceLabels.INSTANCE_TYPE, InstanceLabels.ARCH, InstanceLabels.OS, "node.kubernetes.io/windows-build",
      InstanceLabels.INSTANCE_CATEGORY, InstanceLabels.INSTANCE_FAMILY, InstanceLabels.INSTANCE_GENERATION,
      InstanceLabels.INSTANCE_SIZE, InstanceLabels.INSTANCE_CPU, InstanceLabels.INSTANCE_MEMORY,
      InstanceLabels.INSTANCE_GPU_NAME, InstanceLabels.INSTANCE_GPU_MANUFACTURER, InstanceLabels.INSTANCE_GPU_COUNT,
      InstanceLabels.INSTANCE_GPU_MEMORY);

  private final SortedMap<String, ValueSet> byKey;

  private Requirements(SortedMap<String, ValueSet> byKey) {
    this.byKey = byKey;
  }

  public static Requirements of(Map<String, ValueSet> byKey) {
    return new Requirements(Collections.unmodifiableSortedMap(new TreeMap<>(byKey)));
  }

  /** Every label as {@code key In [value]}. */
  public static Requirements ofLabels(Labels labels) {
    TreeMap<String, ValueSet> m = new TreeMap<>();
    labels.map().forEach((k, v) -> m.put(k, ValueSet.in(v)));
    return new Requirements(Collections.unmodifiableSortedMap(m));
  }

  /** Node-selector requirements, intersected per key (deprecated label aliases normalised). */
  public static Requirements ofSelector(List<Requirement> requirements) {
    TreeMap<String, ValueSet> m = new TreeMap<>();
    for (Requirement r : requirements) {
      ValueSet v = switch (r.operator()) {
        case IN -> ValueSet.in(r.values());
        case NOT_IN -> ValueSet.notIn(r.values());
        case EXISTS -> ValueSet.exists();
        case DOES_NOT_EXIST -> ValueSet.doesNotExist();
        case GT -> ValueSet.greaterThan(Long.parseLong(r.values().getFirst()));
        case LT -> ValueSet.lessThan(Long.parseLong(r.values().getFirst()));
      };
      m.merge(InstanceLabels.normalise(r.key()), v, ValueSet::intersect);
    }
    return new Requirements(Collections.unmodifiableSortedMap(m));
  }

  public Optional<ValueSet> get(String key) {
    return Optional.ofNullable(byKey.get(key));
  }

  public boolean has(String key) {
    return byKey.containsKey(key);
  }

  public Set<String> keys() {
    return byKey.keySet();
  }

  public boolean isEmpty() {
    return byKey.isEmpty();
  }

  /** Both sets of requirements at once: keys of either, value sets intersected where both speak. */
  public Requirements and(Requirements o) {
    if (o.byKey.isEmpty()) {
      return this;
    }
    if (byKey.isEmpty()) {
      return o;
    }
    TreeMap<String, ValueSet> m = new TreeMap<>(byKey);
    o.byKey.forEach((k, v) -> m.merge(k, v, ValueSet::intersect));
    return new Requirements(Collections.unmodifiableSortedMap(m));
  }

  public Requirements with(String key, ValueSet values) {
    TreeMap<String, ValueSet> m = new TreeMap<>(byKey);
    m.merge(key, values, ValueSet::intersect);
    return new Requirements(Collections.unmodifiableSortedMap(m));
  }

  /**
   * Why {@code incoming} (a pod's requirements) cannot be met by a node these requirements describe,
   * in Karpenter's words; empty when they can. A key this side does not define is fine when the
   * incoming set lets the label be absent or the key is in {@code undefinedAllowed}; otherwise
   * {@code label "k" does not have known values}. A key both define must leave a value:
   * {@code key k, k In [a] not in k In [b]}.
   */
  public Optional<String> incompatibility(Requirements incoming, Set<String> undefinedAllowed) {
    for (Map.Entry<String, ValueSet> e : incoming.byKey.entrySet()) {
      String key = e.getKey();
      ValueSet theirs = e.getValue();
      ValueSet ours = byKey.get(key);
      if (ours == null) {
        if (!theirs.absentAllowed() && !undefinedAllowed.contains(key)) {
          return Optional.of("label \"" + key + "\" does not have known values");
        }
        continue;
      }
      if (ours.intersect(theirs).isEmpty()) {
        return Optional.of("key " + key + ", " + key + " " + theirs.describe() + " not in " + key + " "
            + ours.describe());
      }
    }
    return Optional.empty();
  }

  /** True when, for every key both define, some value satisfies both (Karpenter's {@code Intersects}). */
  public boolean intersects(Requirements o) {
    Requirements small = byKey.size() <= o.byKey.size() ? this : o;
    Requirements large = small == this ? o : this;
    for (Map.Entry<String, ValueSet> e : small.byKey.entrySet()) {
      ValueSet other = large.byKey.get(e.getKey());
      if (other != null && e.getValue().intersect(other).isEmpty()) {
        return false;
      }
    }
    return true;
  }

  /** Whether concrete labels satisfy every requirement. */
  public boolean admits(Labels labels) {
    for (Map.Entry<String, ValueSet> e : byKey.entrySet()) {
      if (!e.getValue().admits(labels.map().get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }

  /** {@code a In [x y], b Exists}: sorted by key, as Karpenter prints requirements. */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    byKey.forEach((k, v) -> {
      if (!b.isEmpty()) {
        b.append(", ");
      }
      b.append(k).append(' ').append(v.describe());
    });
    return b.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Requirements r && r.byKey.equals(byKey);
  }

  @Override
  public int hashCode() {
    return byKey.hashCode();
  }
}
