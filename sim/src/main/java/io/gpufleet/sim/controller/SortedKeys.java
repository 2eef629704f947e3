package io.gpufleet.sim.controller;

import io.gpufleet.model.collect.PMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A persistent map's keys in their natural order, brought from one image of the map to the next by
 * the keys that came and went between them ({@link PMap#diff}, which skips shared subtrees), not
 * sorted afresh each time: a map whose values change but whose keys stay costs what changed.
 * SortedKeysTest compares it with a sort of the keys after many random changes.
 */
final class SortedKeys<K extends Comparable<? super K>, V> {
  private PMap<K, V> of;
  /** The keys of {@link #of} in order: an immutable list, handed out as is. */
  private List<K> keys = List.of();

  /** The map's keys in their natural order (an immutable list, the same object while the keys are). */
  List<K> of(PMap<K, V> map) {
    if (map == of) {
      return keys;
    }
    if (of == null) {
      List<K> all = new ArrayList<>(map.keys());
      all.sort(null);
      keys = List.copyOf(all);
    } else {
      List<K> came = new ArrayList<>();
      List<K> gone = new ArrayList<>();
      of.diff(map, (k, was, now) -> {
        if (was == null) {
          came.add(k);
        } else if (now == null) {
          gone.add(k);
        }
      });
      if (!came.isEmpty() || !gone.isEmpty()) {
        List<K> next = new ArrayList<>(keys);
        for (K k : gone) {
          next.remove(Collections.binarySearch(next, k));
        }
        for (K k : came) {
          next.add(-Collections.binarySearch(next, k) - 1, k);
        }
        keys = List.copyOf(next);
      }
    }
    of = map;
    return keys;
  }
}
