package io.gpufleet.sim.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.collect.PMap;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link SortedKeys} followed by a map's diffs gives the keys a sort of the map's keys gives, after
 * each of many random changes: keys put, values replaced, keys removed, runs of each, and now and
 * then a map of another lineage.
 */
class SortedKeysTest {

  @Test
  void followedKeysAreTheSortedKeysAfterEachChange() {
    int kept = 0;
    for (long seed = 1; seed <= 30; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      SortedKeys<String, Integer> sorted = new SortedKeys<>();
      PMap<String, Integer> map = PMap.empty();
      List<String> before = sorted.of(map);
      for (int step = 0; step < 300; step++) {
        int kind = r.nextInt(10);
        List<String> present = new ArrayList<>(map.keys());
        if (kind < 4 || present.isEmpty()) {
          for (int i = 1 + r.nextInt(kind == 0 ? 20 : 2); i > 0; i--) {
            map = map.put("k" + r.nextInt(500), r.nextInt());
          }
        } else if (kind < 6) {
          for (int i = 1 + r.nextInt(kind == 4 ? 10 : 2); i > 0 && !present.isEmpty(); i--) {
            map = map.remove(present.remove(r.nextInt(present.size())));
          }
        } else if (kind < 9) {
          map = map.put(present.get(r.nextInt(present.size())), r.nextInt());
        } else {
          PMap<String, Integer> other = PMap.empty();
          for (int i = r.nextInt(40); i > 0; i--) {
            other = other.put("k" + r.nextInt(500), i);
          }
          map = other;
        }
        List<String> expected = new ArrayList<>(map.keys());
        expected.sort(null);
        List<String> keys = sorted.of(map);
        assertThat(keys).as("seed %d step %d", seed, step).isEqualTo(expected);
        if (keys == before) {
          kept++;
        }
        before = keys;
      }
    }
    assertThat(kept).as("lists kept while only values changed").isGreaterThan(1000);
  }
}
