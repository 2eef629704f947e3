package io.gpufleet.model.resource;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.BinaryOperator;

/** An immutable map of resource names to quantities, iterated in {@link ResourceName} order. */
public record ResourceList(SortedMap<ResourceName, Quantity> quantities) {

  public static final ResourceList EMPTY = new ResourceList(new TreeMap<>());

  public ResourceList {
    quantities = Collections.unmodifiableSortedMap(new TreeMap<>(quantities));
  }

  public static ResourceList of(Map<ResourceName, Quantity> map) {
    return new ResourceList(new TreeMap<>(map));
  }

  /** Parses alternating name/quantity strings: {@code of("cpu", "2", "nvidia.com/gpu", "1")}. */
  public static ResourceList of(String... namesAndQuantities) {
    if (namesAndQuantities.length % 2 != 0) {
      throw new IllegalArgumentException("names and quantities must alternate");
    }
    TreeMap<ResourceName, Quantity> m = new TreeMap<>();
    for (int i = 0; i < namesAndQuantities.length; i += 2) {
      m.put(ResourceName.of(namesAndQuantities[i]), Quantity.parse(namesAndQuantities[i + 1]));
    }
    return new ResourceList(m);
  }

  public Optional<Quantity> get(ResourceName name) {
    return Optional.ofNullable(quantities.get(name));
  }

  public Quantity getOrZero(ResourceName name) {
    return quantities.getOrDefault(name, Quantity.ZERO);
  }

  public boolean contains(ResourceName name) {
    return quantities.containsKey(name);
  }

  public Set<ResourceName> names() {
    return quantities.keySet();
  }

  public boolean isEmpty() {
    return quantities.isEmpty();
  }

  public ResourceList with(ResourceName name, Quantity quantity) {
    TreeMap<ResourceName, Quantity> m = new TreeMap<>(quantities);
    m.put(name, quantity);
    return new ResourceList(m);
  }

  public ResourceList without(ResourceName name) {
    TreeMap<ResourceName, Quantity> m = new TreeMap<>(quantities);
    m.remove(name);
    return new ResourceList(m);
  }

  /** The list without NVIDIA's GPU resources: what a node offers before a device plugin registers. */
  public ResourceList withoutNvidiaGpus() {
    TreeMap<ResourceName, Quantity> m = new TreeMap<>(quantities);
    m.keySet().removeIf(ResourceName::isNvidiaGpuLike);
    return new ResourceList(m);
  }

  public ResourceList plus(ResourceList other) {
    return merge(other, Quantity::plus);
  }

  /** Per resource, the larger of the two (a name missing on one side counts as zero). */
  public ResourceList max(ResourceList other) {
    return merge(other, (a, b) -> a.compareTo(b) >= 0 ? a : b);
  }

  private ResourceList merge(ResourceList other, BinaryOperator<Quantity> op) {
    TreeMap<ResourceName, Quantity> m = new TreeMap<>(quantities);
    other.quantities.forEach((k, v) -> m.merge(k, v, op));
    return new ResourceList(m);
  }

  /** {@code {cpu: 2, nvidia.com/gpu: 1}} */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("{");
    quantities.forEach((k, v) -> {
      if (b.length() > 1) {
        b.append(", ");
      }
      b.append(k).append(": ").append(v);
    });
    return b.append('}').toString();
  }
}
