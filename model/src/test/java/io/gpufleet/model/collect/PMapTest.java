package io.gpufleet.model.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.testing.property.Gen;
import io.gpufleet.testing.property.Property;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PMapTest {

  /** Fixed, so every build runs the same samples. */
  private static final long SEED = 20261206L;

  /** A key whose hash collides often, to exercise deep and full-collision paths. */
  record Key(int id) {
    @Override
    public int hashCode() {
      return id % 7 == 0 ? 42 : id * 0x9E3779B1;
    }
  }

  /**
   * keysSharingHash gives the keys of one hash in the order the map iterates them: after each of many
   * seeded puts and removes of keys that often share a hash (one in seven all share one), it equals
   * the map's keys of that hash in iteration order, for keys in the map and not.
   */
  @Test
  void keysSharingAHashComeInIterationOrder() {
    SplittableRandom r = new SplittableRandom(SEED);
    PMap<Key, Integer> m = PMap.empty();
    int shared = 0;
    for (int step = 0; step < 4000; step++) {
      Key k = new Key(r.nextInt(200));
      m = r.nextInt(3) > 0 ? m.put(k, step) : m.remove(k);
      Key asked = new Key(r.nextInt(200));
      List<Key> expected = new ArrayList<>();
      for (Key o : m.keys()) {
        if (o.hashCode() == asked.hashCode()) {
          expected.add(o);
        }
      }
      assertThat(m.keysSharingHash(asked)).as("step %d", step).isEqualTo(expected);
      shared += expected.size() > 1 ? 1 : 0;
    }
    assertThat(shared).isGreaterThan(500);
  }

  /**
   * updateAll is the gets and puts it stands for, one after another: the same entries in the same
   * iteration order, a repeated key's later update seeing the earlier one's value, the map it started
   * from unchanged; over 300 seeded maps of colliding keys (full collisions included) and batches of
   * 0 to 2x the map's size.
   */
  @Test
  void updateAllIsTheGetsAndPutsOneAfterAnother() {
    SplittableRandom random = new SplittableRandom(SEED);
    for (int trial = 0; trial < 300; trial++) {
      int n = random.nextInt(1, 400);
      PMap<Key, Integer> p = PMap.empty();
      for (int i = 0; i < n; i++) {
        p = p.put(new Key(random.nextInt(1000)), i);
      }
      List<Key> present = p.keys();
      List<Key> keys = new ArrayList<>();
      List<Integer> values = new ArrayList<>();
      int batch = random.nextInt(2 * present.size() + 1);
      for (int i = 0; i < batch; i++) {
        keys.add(present.get(random.nextInt(present.size())));
        values.add(random.nextInt(1_000_000));
      }
      PMap<Key, Integer> puts = p;
      for (int i = 0; i < batch; i++) {
        puts = puts.put(keys.get(i), 31 * puts.get(keys.get(i)) + values.get(i));
      }
      Map<Key, Integer> before = entries(p);
      PMap<Key, Integer> replaced = p.updateAll(keys, (i, now) -> 31 * now + values.get(i));
      assertThat(entries(replaced)).isEqualTo(entries(puts));
      assertThat(replaced.keys()).containsExactlyElementsOf(puts.keys());
      assertThat(replaced.size()).isEqualTo(puts.size());
      assertThat(entries(p)).isEqualTo(before);
      for (Key k : present) {
        assertThat(replaced.get(k)).isEqualTo(puts.get(k));
      }
    }
  }

  /**
   * putAll is the puts it stands for, one after another: the same trie (every node's slots, the same key
   * and value objects in them), so the same iteration order and the same diffs; the map it started from
   * keeps its own trie; over 300 seeded maps of colliding keys (full collisions included) shaped by puts
   * and removes, and batches of new keys, present keys and repeats, from none to 2x the map's size.
   */
  @Test
  void putAllIsThePutsOneAfterAnother() {
    SplittableRandom random = new SplittableRandom(SEED);
    for (int trial = 0; trial < 300; trial++) {
      int n = random.nextInt(0, 400);
      PMap<Key, Integer> p = PMap.empty();
      for (int i = 0; i < n; i++) {
        Key k = new Key(random.nextInt(1000));
        // Removes leave subtrees of one entry, which a put of a key beside it must keep.
        p = random.nextInt(4) == 0 ? p.remove(k) : p.put(k, 1000 + i);
      }
      List<Key> keys = new ArrayList<>();
      List<Integer> values = new ArrayList<>();
      int batch = random.nextInt(2 * n + 2);
      List<Key> present = p.keys();
      for (int i = 0; i < batch; i++) {
        int kind = random.nextInt(4);
        Key k = kind == 0 && !present.isEmpty() ? present.get(random.nextInt(present.size()))
            : kind == 1 && !keys.isEmpty() ? keys.get(random.nextInt(keys.size())) : new Key(random.nextInt(3000));
        keys.add(new Key(k.id()));
        values.add(random.nextInt(4) == 0 && p.get(k) != null ? p.get(k) : 1_000_000 + random.nextInt(1_000_000));
      }
      List<Object> before = shape(p);
      PMap<Key, Integer> puts = p;
      for (int i = 0; i < batch; i++) {
        puts = puts.put(keys.get(i), values.get(i));
      }
      PMap<Key, Integer> all = p.putAll(keys, values);
      assertThat(shape(all)).as("trial %d", trial).isEqualTo(shape(puts));
      assertThat(all.size()).isEqualTo(puts.size());
      assertThat(all.keys()).containsExactlyElementsOf(puts.keys());
      assertThat(shape(p)).isEqualTo(before);
      assertThat(changes(p, all)).isEqualTo(changes(p, puts));
      if (puts == p) {
        assertThat(all).isSameAs(p);
      }
    }
  }

  /** A trie as nested lists: per node its bitmap, then each slot's key and value, or (null key) its child's shape. */
  private static List<Object> shape(PMap<?, ?> p) {
    try {
      java.lang.reflect.Field root = PMap.class.getDeclaredField("root");
      root.setAccessible(true);
      return node(root.get(p));
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  private static List<Object> node(Object node) throws ReflectiveOperationException {
    java.lang.reflect.Field bitmap = node.getClass().getDeclaredField("bitmap");
    java.lang.reflect.Field slots = node.getClass().getDeclaredField("slots");
    bitmap.setAccessible(true);
    slots.setAccessible(true);
    List<Object> out = new ArrayList<>(List.of(bitmap.get(node)));
    Object[] s = (Object[]) slots.get(node);
    for (int i = 0; i < s.length; i += 2) {
      // Identities, as the trie holds them: a put that finds a key keeps the key object it had.
      out.add(s[i] == null ? node(s[i + 1]) : List.of(System.identityHashCode(s[i]), System.identityHashCode(s[i + 1])));
    }
    return out;
  }

  /** What {@code a.diff(b)} reports, in its order. */
  private static List<Object> changes(PMap<Key, Integer> a, PMap<Key, Integer> b) {
    List<Object> out = new ArrayList<>();
    a.diff(b, (k, was, now) -> out.add(java.util.Arrays.asList(k, was, now)));
    return out;
  }

  @Test
  void updateAllRefusesAKeyTheMapLacks() {
    PMap<Key, Integer> p = PMap.<Key, Integer>empty().put(new Key(1), 1).put(new Key(7), 7).put(new Key(14), 14);
    for (int missing : new int[] {2, 21, 8}) {
      assertThatThrownBy(() -> p.updateAll(List.of(new Key(1), new Key(missing)), (i, now) -> now + 1))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not in the map");
    }
    assertThat(entries(p)).isEqualTo(Map.of(new Key(1), 1, new Key(7), 7, new Key(14), 14));
  }

  private static <K, V> Map<K, V> entries(PMap<K, V> p) {
    Map<K, V> out = new HashMap<>();
    p.forEach(out::put);
    return out;
  }

  @Test
  void behavesLikeAMapAndNeverChangesOldVersions() {
    Property.check(SEED, 200, Gen.ints(0, 200).list(0, 300), PMapTest::behavesLikeAMap);
  }

  private static void behavesLikeAMap(List<Integer> ops) {
    PMap<Key, Integer> p = PMap.empty();
    Map<Key, Integer> ref = new HashMap<>();
    PMap<Key, Integer> snapshot = p;
    Map<Key, Integer> snapshotRef = Map.of();
    int step = 0;
    for (int op : ops) {
      Key k = new Key(op % 100);
      if (op >= 150) {
        p = p.remove(k);
        ref.remove(k);
      } else {
        p = p.put(k, op);
        ref.put(k, op);
      }
      if (++step == ops.size() / 2) {
        snapshot = p;
        snapshotRef = Map.copyOf(ref);
      }
      assertThat(p.size()).isEqualTo(ref.size());
    }
    for (int i = 0; i < 100; i++) {
      assertThat(p.get(new Key(i))).isEqualTo(ref.get(new Key(i)));
      assertThat(snapshot.get(new Key(i))).isEqualTo(snapshotRef.get(new Key(i)));
    }
    Map<Key, Integer> iterated = new HashMap<>();
    p.forEach(iterated::put);
    assertThat(iterated).isEqualTo(ref);
  }

  /** diff reports exactly the keys whose values differ, from any map to any other, shared or not. */
  @Test
  void diffReportsExactlyWhatChanged() {
    Gen<List<Integer>> ops = Gen.ints(0, 200).list(0, 200);
    Property.check(SEED, 300, ops, ops, Gen.booleans(), PMapTest::diffReportsExactly);
  }

  private static void diffReportsExactly(List<Integer> first, List<Integer> then, boolean unrelated) {
    PMap<Key, Integer> a = apply(PMap.empty(), first);
    PMap<Key, Integer> b = apply(unrelated ? PMap.empty() : a, then);
    Map<Key, Integer> expected = new HashMap<>();
    Map<Key, Integer> before = new HashMap<>();
    a.forEach(before::put);
    Map<Key, Integer> after = new HashMap<>();
    b.forEach(after::put);
    java.util.Set<Key> keys = new java.util.HashSet<>(before.keySet());
    keys.addAll(after.keySet());
    for (Key k : keys) {
      if (before.get(k) != after.get(k)) { // identity, as diff compares
        expected.put(k, after.get(k) == null ? -1 : after.get(k));
      }
    }
    Map<Key, Integer> reported = new HashMap<>();
    a.diff(b, (k, was, now) -> {
      assertThat(reported).doesNotContainKey(k);
      assertThat(was).isSameAs(before.get(k));
      reported.put(k, now == null ? -1 : now);
    });
    assertThat(reported).isEqualTo(expected);
  }

  private static PMap<Key, Integer> apply(PMap<Key, Integer> p, List<Integer> ops) {
    for (int op : ops) {
      Key k = new Key(op % 100);
      // Boxed values above 127 are fresh objects, so a put of an equal value still counts as a change.
      p = op >= 150 ? p.remove(k) : p.put(k, Integer.valueOf(op * 1000));
    }
    return p;
  }
}
