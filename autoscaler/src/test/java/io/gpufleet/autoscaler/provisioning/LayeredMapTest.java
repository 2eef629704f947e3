package io.gpufleet.autoscaler.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A {@link LayeredMap} holds what a {@link LinkedHashMap} copy of the map under it, changed alike, holds,
 * in the copy's order: seeded puts and removes over a few keys (so that keys of the map under are put
 * again, removed, and put again after a remove), several maps layered on one map under and changed in
 * turns, each read after the others changed, and the map under never changed.
 */
class LayeredMapTest {

  @Test
  void aLayeredMapHoldsWhatAChangedCopyHolds() {
    int removedUnder = 0;
    int putAfterRemove = 0;
    for (long seed = 1; seed <= 300; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      int keys = 2 + r.nextInt(10);
      Map<String, String> under = new LinkedHashMap<>();
      for (int i = r.nextInt(keys); i > 0; i--) {
        under.put("k" + r.nextInt(keys), "u" + r.nextInt(3));
      }
      Map<String, String> underBefore = new LinkedHashMap<>(under);
      List<LayeredMap<String, String>> layered = new ArrayList<>();
      List<Map<String, String>> copies = new ArrayList<>();
      for (int i = 1 + r.nextInt(4); i > 0; i--) {
        layered.add(new LayeredMap<>(under));
        copies.add(new LinkedHashMap<>(under));
      }
      for (int op = 0; op < 40; op++) {
        int m = r.nextInt(layered.size());
        String key = "k" + r.nextInt(keys);
        LayeredMap<String, String> a = layered.get(m);
        Map<String, String> b = copies.get(m);
        if (r.nextInt(3) == 0) {
          removedUnder += under.containsKey(key) && b.containsKey(key) ? 1 : 0;
          assertThat(a.remove(key)).isEqualTo(b.remove(key));
        } else {
          String value = "v" + r.nextInt(3);
          putAfterRemove += under.containsKey(key) && !b.containsKey(key) ? 1 : 0;
          assertThat(a.put(key, value)).isEqualTo(b.put(key, value));
        }
        for (int i = 0; i < layered.size(); i++) { // every map, those changed before this one's turn too
          String as = String.format("seed %d op %d map %d", seed, op, i);
          assertThat(List.copyOf(layered.get(i).entrySet())).as(as).isEqualTo(List.copyOf(copies.get(i).entrySet()));
          assertThat(layered.get(i)).as(as).hasSize(copies.get(i).size());
          for (int k = 0; k < keys; k++) {
            assertThat(layered.get(i).get("k" + k)).as(as).isEqualTo(copies.get(i).get("k" + k));
            assertThat(layered.get(i).containsKey("k" + k)).as(as).isEqualTo(copies.get(i).containsKey("k" + k));
          }
        }
      }
      assertThat(List.copyOf(under.entrySet())).isEqualTo(List.copyOf(underBefore.entrySet()));
    }
    assertThat(removedUnder).as("keys of the map under removed").isGreaterThan(500);
    assertThat(putAfterRemove).as("keys of the map under put again after a remove").isGreaterThan(500);
  }
}
