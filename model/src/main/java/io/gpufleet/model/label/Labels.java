package io.gpufleet.model.label;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/** An immutable set of labels (or annotations), iterated in key order so output is deterministic. */
public record Labels(SortedMap<String, String> map) {

  public static final Labels EMPTY = new Labels(new TreeMap<>());

  public Labels {
    map = new LabelMap(map); // read-only, in key order, looked up by hash
  }

  public static Labels of(Map<String, String> map) {
    return map.isEmpty() ? EMPTY : new Labels(new TreeMap<>(map));
  }

  public static Labels of(String... keysAndValues) {
    if (keysAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("keys and values must alternate");
    }
    TreeMap<String, String> m = new TreeMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      m.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return new Labels(m);
  }

  public Optional<String> get(String key) {
    return Optional.ofNullable(map.get(key));
  }

  public boolean has(String key) {
    return map.containsKey(key);
  }

  public boolean isEmpty() {
    return map.isEmpty();
  }

  public Labels with(String key, String value) {
    TreeMap<String, String> m = new TreeMap<>(map);
    m.put(key, value);
    return new Labels(m);
  }

  public Labels withAll(Labels other) {
    TreeMap<String, String> m = new TreeMap<>(map);
    m.putAll(other.map);
    return new Labels(m);
  }

  public Labels without(String key) {
    if (!map.containsKey(key)) {
      return this;
    }
    TreeMap<String, String> m = new TreeMap<>(map);
    m.remove(key);
    return new Labels(m);
  }

  /** True when every pair of {@code subset} is present here with the same value. */
  public boolean containsAll(Labels subset) {
    if (subset.map.isEmpty()) {
      return true;
    }
    for (Map.Entry<String, String> e : subset.map.entrySet()) {
      if (!e.getValue().equals(map.get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }

  /** {@code a=1,b=2}, as {@code kubectl get --show-labels} prints them. */
  // equals and hashCode written out, as the record's own would be (RecordMethodsTest): those are
  // linked at their first call by ObjectMethods' bootstrap, which spins method-handle classes that
  // no AOT cache holds, and every schedule compares these.
  @Override
  public boolean equals(Object o) {
    return o instanceof Labels l && Objects.equals(map, l.map);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(map);
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    map.forEach((k, v) -> {
      if (!b.isEmpty()) {
        b.append(',');
      }
      b.append(k).append('=').append(v);
    });
    return b.toString();
  }
}
