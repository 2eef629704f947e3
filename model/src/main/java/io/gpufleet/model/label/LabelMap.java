package io.gpufleet.model.label;

import java.util.AbstractMap;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * The read-only map of a {@link Labels}: iterated in key order like the sorted map it wraps, but
 * looked up by hash. Labels are read by key far more often than listed (node pools, device-plugin
 * switches, do-not-disrupt, drift, requirements on every node of every poll), and a sorted map's
 * lookup compares the key with several others character by character.
 */
final class LabelMap extends AbstractMap<String, String> implements SortedMap<String, String> {

  private final SortedMap<String, String> sorted;
  private final Map<String, String> index;

  LabelMap(Map<String, String> map) {
    TreeMap<String, String> t = new TreeMap<>(map);
    this.sorted = Collections.unmodifiableSortedMap(t);
    this.index = new HashMap<>(t);
  }

  @Override
  public String get(Object key) {
    return index.get(key);
  }

  @Override
  public boolean containsKey(Object key) {
    return index.containsKey(key);
  }

  @Override
  public int size() {
    return index.size();
  }

  @Override
  public boolean isEmpty() {
    return index.isEmpty();
  }

  @Override
  public Set<Entry<String, String>> entrySet() {
    return sorted.entrySet();
  }

  @Override
  public Set<String> keySet() {
    return sorted.keySet();
  }

  @Override
  public Collection<String> values() {
    return sorted.values();
  }

  @Override
  public void forEach(BiConsumer<? super String, ? super String> action) {
    sorted.forEach(action);
  }

  @Override
  public Comparator<? super String> comparator() {
    return sorted.comparator();
  }

  @Override
  public SortedMap<String, String> subMap(String fromKey, String toKey) {
    return sorted.subMap(fromKey, toKey);
  }

  @Override
  public SortedMap<String, String> headMap(String toKey) {
    return sorted.headMap(toKey);
  }

  @Override
  public SortedMap<String, String> tailMap(String fromKey) {
    return sorted.tailMap(fromKey);
  }

  @Override
  public String firstKey() {
    return sorted.firstKey();
  }

  @Override
  public String lastKey() {
    return sorted.lastKey();
  }
}
