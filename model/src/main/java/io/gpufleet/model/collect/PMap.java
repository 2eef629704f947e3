package io.gpufleet.model.collect;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * A persistent hash map (a hash array mapped trie): every update returns a new map that shares all
 * but a path of nodes with the old one, so cluster images stay immutable and cheap to derive.
 * Iteration follows hash order, which is deterministic for the keys the simulator uses (strings and
 * records of strings, whose hash codes derive from the strings);
 * callers that show an order sort explicitly.
 */
public final class PMap<K, V> {

  private static final int BITS = 5;
  private static final int MASK = (1 << BITS) - 1;
  @SuppressWarnings("rawtypes")
  private static final PMap EMPTY = new PMap<>(new Bitmap(0, new Object[0]), 0);

  private final Bitmap root;
  private final int size;

  private PMap(Bitmap root, int size) {
    this.root = root;
    this.size = size;
  }

  @SuppressWarnings("unchecked")
  public static <K, V> PMap<K, V> empty() {
    return (PMap<K, V>) EMPTY;
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  private static int hash(Object k) {
    int h = k.hashCode();
    return h ^ (h >>> 16);
  }

  @SuppressWarnings("unchecked")
  public V get(K key) {
    return (V) root.get(key, hash(key), 0);
  }

  /**
   * The keys whose hash is {@code key}'s (itself among them if present), in iteration order: keys of
   * one hash iterate in the order they were put, which no diff tells, so a caller that follows the
   * map's order by its changes asks here for such a group. Costs a lookup.
   */
  @SuppressWarnings("unchecked")
  public List<K> keysSharingHash(K key) {
    int hash = hash(key);
    Bitmap node = root;
    for (int shift = 0; ; shift += BITS) {
      if (shift >= 32) {
        List<K> out = new ArrayList<>(node.slots.length / 2);
        for (int i = 0; i < node.slots.length; i += 2) {
          out.add((K) node.slots[i]);
        }
        return out;
      }
      int bit = 1 << ((hash >>> shift) & MASK);
      if ((node.bitmap & bit) == 0) {
        return List.of();
      }
      int i = 2 * Integer.bitCount(node.bitmap & (bit - 1));
      Object k = node.slots[i];
      if (k != null) {
        return hash(k) == hash ? List.of((K) k) : List.of();
      }
      node = (Bitmap) node.slots[i + 1];
    }
  }

  public boolean containsKey(K key) {
    return get(key) != null;
  }

  public PMap<K, V> put(K key, V value) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    boolean[] added = new boolean[1];
    Bitmap r = root.put(key, value, hash(key), 0, added);
    return r == root ? this : new PMap<>(r, added[0] ? size + 1 : size);
  }

  /**
   * This map with each of {@code keys} mapped to the value at the same index of {@code values}, as a
   * {@link #put} of each in list order would make it: the same entries, iteration order and shape (a
   * repeated key ends with its last value; keys of one full hash iterate in the order first put). Each
   * node on the keys' paths is copied once, not once per key: a batch of many keys costs the nodes it
   * touches, not the keys times the trie's depth.
   */
  public PMap<K, V> putAll(List<K> keys, List<V> values) {
    int n = keys.size();
    if (n != values.size()) {
      throw new IllegalArgumentException(n + " keys but " + values.size() + " values");
    }
    for (V v : values) {
      Objects.requireNonNull(v, "value");
    }
    if (n == 0) {
      return this;
    }
    Batch b = new Batch(keys);
    Bitmap r = root.putAll(b, values.toArray(), 0, n, 0);
    return r == root ? this : new PMap<>(r, size + b.added);
  }

  /** What {@link #updateAll} maps the key at {@code index} of its list to, given the value it has now. */
  @FunctionalInterface
  public interface Update<V> {
    V apply(int index, V now);
  }

  /**
   * This map with each of {@code keys}, in list order, mapped to what {@code update} makes of its value,
   * as a {@link #get} and a {@link #put} per key would make it, where every key is in the map already
   * (a repeated key's later update sees the earlier one's value). Each node on the keys' paths is
   * looked up and copied once, not once per key: a batch of updates to a large map costs the nodes it
   * touches, not the keys times the trie's depth twice.
   *
   * @throws IllegalArgumentException if a key is not in the map (this map is unchanged)
   */
  public PMap<K, V> updateAll(List<K> keys, Update<V> update) {
    int n = keys.size();
    if (n == 0) {
      return this;
    }
    @SuppressWarnings("unchecked")
    Update<Object> u = (Update<Object>) update;
    return new PMap<>(root.update(new Batch(keys), u, 0, n, 0), size);
  }

  public PMap<K, V> remove(K key) {
    boolean[] removed = new boolean[1];
    Bitmap r = root.remove(key, hash(key), 0, removed);
    return removed[0] ? new PMap<>(r, size - 1) : this;
  }

  @SuppressWarnings("unchecked")
  public void forEach(BiConsumer<K, V> action) {
    root.forEach((BiConsumer<Object, Object>) (BiConsumer<?, ?>) action);
  }

  public List<V> values() {
    List<V> out = new ArrayList<>(size);
    forEach((k, v) -> out.add(v));
    return out;
  }

  public List<K> keys() {
    List<K> out = new ArrayList<>(size);
    forEach((k, v) -> out.add(k));
    return out;
  }

  /**
   * This map as a read-only {@link java.util.Map}: lookups go to the trie; iteration (rare for its
   * users) lists the entries in this map's order.
   */
  public Map<K, V> asMap() {
    PMap<K, V> self = this;
    return new AbstractMap<>() {
      @Override
      @SuppressWarnings("unchecked")
      public V get(Object key) {
        return key == null ? null : (V) self.root.get(key, hash(key), 0);
      }

      @Override
      public boolean containsKey(Object key) {
        return get(key) != null;
      }

      @Override
      public int size() {
        return self.size;
      }

      @Override
      public Set<Entry<K, V>> entrySet() {
        Set<Entry<K, V>> entries = new LinkedHashSet<>();
        self.forEach((k, v) -> entries.add(Map.entry(k, v)));
        return Collections.unmodifiableSet(entries);
      }
    };
  }

  /** What {@link #diff} reports for each key whose value is not the same object in both maps. */
  @FunctionalInterface
  public interface Change<K, V> {
    /** {@code before} is null for a key only {@code after} holds, {@code after} for one it lacks. */
    void changed(K key, V before, V after);
  }

  /**
   * Reports every key added, removed or mapped to another object (by identity) from this map to
   * {@code after}, in no particular order. Subtrees the two maps share are skipped, so for two images
   * of one lineage the cost follows what changed between them, not the map's size.
   */
  @SuppressWarnings("unchecked")
  public void diff(PMap<K, V> after, Change<K, V> change) {
    if (after.root != root) {
      Bitmap.diff(root, after.root, 0, (Change<Object, Object>) (Change<?, ?>) change);
    }
  }

  /**
   * The keys of a batch ({@link #putAll}, {@link #updateAll}) with their hashes, and the work arrays its
   * walk down the trie groups them with: {@code order} holds indexes of keys, each node's range of it
   * grouped by slot in turn (a counting sort through {@code scratch}), with one array of group starts
   * per level, not one per node.
   */
  private static final class Batch {
    final Object[] keys;
    final int[] hashes;
    final int[] order;
    final int[] scratch;
    final int[] at = new int[MASK + 1];
    final int[][] starts = new int[(32 + BITS - 1) / BITS][MASK + 2];
    /** Keys a {@link #putAll} found missing. */
    int added;

    Batch(List<?> keys) {
      int n = keys.size();
      this.keys = keys.toArray();
      this.hashes = new int[n];
      this.order = new int[n];
      this.scratch = new int[n];
      for (int i = 0; i < n; i++) {
        order[i] = i;
        hashes[i] = hash(Objects.requireNonNull(this.keys[i], "key"));
      }
    }

    Object key(int j) {
      return keys[order[j]];
    }

    /**
     * Groups {@code order[from..to)} by the slot of their hashes at {@code shift}, stably; the group of
     * slot {@code c} is then {@code order[from + start[c] .. from + start[c + 1])}, {@code start} this
     * level's array (valid until the level's next grouping).
     */
    int[] groups(int from, int to, int shift) {
      int[] start = starts[shift / BITS];
      Arrays.fill(start, 0);
      for (int j = from; j < to; j++) {
        start[((hashes[order[j]] >>> shift) & MASK) + 1]++;
      }
      for (int c = 0; c <= MASK; c++) {
        start[c + 1] += start[c];
      }
      System.arraycopy(start, 0, at, 0, MASK + 1);
      for (int j = from; j < to; j++) {
        scratch[from + at[(hashes[order[j]] >>> shift) & MASK]++] = order[j];
      }
      System.arraycopy(scratch, from, order, from, to - from);
      return start;
    }
  }

  /** A trie node: a bitmap of occupied slots; each slot a key and value, or (null key) a child node. */
  private static final class Bitmap {
    final int bitmap;
    final Object[] slots;

    Bitmap(int bitmap, Object[] slots) {
      this.bitmap = bitmap;
      this.slots = slots;
    }

    Object get(Object key, int hash, int shift) {
      if (shift >= 32) {
        for (int i = 0; i < slots.length; i += 2) {
          if (slots[i].equals(key)) {
            return slots[i + 1];
          }
        }
        return null;
      }
      int bit = 1 << ((hash >>> shift) & MASK);
      if ((bitmap & bit) == 0) {
        return null;
      }
      int i = 2 * Integer.bitCount(bitmap & (bit - 1));
      Object k = slots[i];
      if (k == null) {
        return ((Bitmap) slots[i + 1]).get(key, hash, shift + BITS);
      }
      return k.equals(key) ? slots[i + 1] : null;
    }

    Bitmap put(Object key, Object value, int hash, int shift, boolean[] added) {
      if (shift >= 32) {
        // Full hash collision: a flat list of pairs.
        for (int i = 0; i < slots.length; i += 2) {
          if (slots[i].equals(key)) {
            if (slots[i + 1] == value) {
              return this;
            }
            Object[] s = slots.clone();
            s[i + 1] = value;
            return new Bitmap(bitmap, s);
          }
        }
        Object[] s = Arrays.copyOf(slots, slots.length + 2);
        s[slots.length] = key;
        s[slots.length + 1] = value;
        added[0] = true;
        return new Bitmap(bitmap, s);
      }
      int bit = 1 << ((hash >>> shift) & MASK);
      int i = 2 * Integer.bitCount(bitmap & (bit - 1));
      if ((bitmap & bit) == 0) {
        Object[] s = new Object[slots.length + 2];
        System.arraycopy(slots, 0, s, 0, i);
        s[i] = key;
        s[i + 1] = value;
        System.arraycopy(slots, i, s, i + 2, slots.length - i);
        added[0] = true;
        return new Bitmap(bitmap | bit, s);
      }
      Object k = slots[i];
      if (k == null) {
        Bitmap child = (Bitmap) slots[i + 1];
        Bitmap next = child.put(key, value, hash, shift + BITS, added);
        if (next == child) {
          return this;
        }
        Object[] s = slots.clone();
        s[i + 1] = next;
        return new Bitmap(bitmap, s);
      }
      if (k.equals(key)) {
        if (slots[i + 1] == value) {
          return this;
        }
        Object[] s = slots.clone();
        s[i + 1] = value;
        return new Bitmap(bitmap, s);
      }
      // Two keys share this slot: push both one level down.
      Bitmap child = new Bitmap(0, new Object[0]);
      boolean[] ignored = new boolean[1];
      child = child.put(k, slots[i + 1], hash(k), shift + BITS, ignored);
      child = child.put(key, value, hash, shift + BITS, added);
      Object[] s = slots.clone();
      s[i] = null;
      s[i + 1] = child;
      return new Bitmap(bitmap, s);
    }

    /**
     * This node with the entries at {@code order[from..to)} of the batch put (see {@link PMap#putAll}),
     * counting the keys it lacked: the entries are grouped by this level's slot, stably, and each slot's
     * group is put as one: an empty slot takes one key inline and several as a subtree, as the second of
     * them would push the first down.
     */
    Bitmap putAll(Batch b, Object[] values, int from, int to, int shift) {
      if (shift >= 32) {
        Bitmap node = this;
        boolean[] fresh = new boolean[1];
        for (int j = from; j < to; j++) {
          fresh[0] = false;
          node = node.put(b.key(j), values[b.order[j]], b.hashes[b.order[j]], shift, fresh);
          b.added += fresh[0] ? 1 : 0;
        }
        return node;
      }
      int[] start = b.groups(from, to, shift);
      int bits = bitmap;
      for (int c = 0; c <= MASK; c++) {
        if (start[c] != start[c + 1]) {
          bits |= 1 << c;
        }
      }
      Object[] s = new Object[2 * Integer.bitCount(bits)];
      boolean changed = bits != bitmap;
      int o = 0;
      for (int left = bits; left != 0; left &= left - 1) {
        int c = Integer.numberOfTrailingZeros(left);
        int bit = 1 << c;
        int x = from + start[c];
        int y = from + start[c + 1];
        int i = 2 * Integer.bitCount(bitmap & (bit - 1));
        Object k = (bitmap & bit) == 0 ? null : slots[i];
        Object v = (bitmap & bit) == 0 ? null : slots[i + 1];
        if (x == y) {
          s[o] = k;
          s[o + 1] = v;
        } else if ((bitmap & bit) != 0 && k == null) {
          s[o + 1] = ((Bitmap) v).putAll(b, values, x, y, shift + BITS);
        } else if (k == null && y - x == 1 || sameKey(b, x, y, k)) {
          // One key, put once or again: it stays inline, with its last value.
          s[o] = k != null ? k : b.key(x);
          s[o + 1] = values[b.order[y - 1]];
          b.added += k == null ? 1 : 0;
        } else {
          // Two keys or more share the slot: a subtree, the one there first.
          Bitmap child = EMPTY_NODE;
          if (k != null) {
            child = child.put(k, v, hash(k), shift + BITS, new boolean[1]);
          }
          s[o + 1] = child.putAll(b, values, x, y, shift + BITS);
        }
        changed |= s[o] != k || s[o + 1] != v;
        o += 2;
      }
      return changed ? new Bitmap(bits, s) : this;
    }

    /** Whether every key at {@code order[x..y)} of the batch is {@code inline} (or, with none there, the first of them). */
    private static boolean sameKey(Batch b, int x, int y, Object inline) {
      Object first = inline == null ? b.key(x) : inline;
      for (int j = x; j < y; j++) {
        if (!first.equals(b.key(j))) {
          return false;
        }
      }
      return true;
    }

    /**
     * This node with the keys at {@code order[from..to)} of the batch updated (see {@link PMap#updateAll}):
     * the updates are grouped by this level's slot, stably, and each subtree they reach is rebuilt once.
     */
    Bitmap update(Batch b, Update<Object> update, int from, int to, int shift) {
      Object[] s = slots.clone();
      if (shift >= 32) {
        for (int j = from; j < to; j++) {
          Object key = b.key(j);
          int i = 0;
          while (i < s.length && !s[i].equals(key)) {
            i += 2;
          }
          if (i == s.length) {
            throw new IllegalArgumentException("not in the map: " + key);
          }
          s[i + 1] = Objects.requireNonNull(update.apply(b.order[j], s[i + 1]), "value");
        }
        return new Bitmap(bitmap, s);
      }
      int[] start = b.groups(from, to, shift);
      for (int c = 0; c <= MASK; c++) {
        int x = from + start[c];
        int y = from + start[c + 1];
        if (x == y) {
          continue;
        }
        int bit = 1 << c;
        if ((bitmap & bit) == 0) {
          throw new IllegalArgumentException("not in the map: " + b.key(x));
        }
        int i = 2 * Integer.bitCount(bitmap & (bit - 1));
        if (s[i] == null) {
          s[i + 1] = ((Bitmap) s[i + 1]).update(b, update, x, y, shift + BITS);
        } else {
          for (int j = x; j < y; j++) {
            if (!s[i].equals(b.key(j))) {
              throw new IllegalArgumentException("not in the map: " + b.key(j));
            }
            s[i + 1] = Objects.requireNonNull(update.apply(b.order[j], s[i + 1]), "value");
          }
        }
      }
      return new Bitmap(bitmap, s);
    }

    Bitmap remove(Object key, int hash, int shift, boolean[] removed) {
      if (shift >= 32) {
        for (int i = 0; i < slots.length; i += 2) {
          if (slots[i].equals(key)) {
            Object[] s = new Object[slots.length - 2];
            System.arraycopy(slots, 0, s, 0, i);
            System.arraycopy(slots, i + 2, s, i, slots.length - i - 2);
            removed[0] = true;
            return new Bitmap(bitmap, s);
          }
        }
        return this;
      }
      int bit = 1 << ((hash >>> shift) & MASK);
      if ((bitmap & bit) == 0) {
        return this;
      }
      int i = 2 * Integer.bitCount(bitmap & (bit - 1));
      Object k = slots[i];
      if (k == null) {
        Bitmap child = (Bitmap) slots[i + 1];
        Bitmap next = child.remove(key, hash, shift + BITS, removed);
        if (next == child) {
          return this;
        }
        Object[] s = slots.clone();
        if (next.slots.length == 0) {
          return without(i, bit);
        }
        s[i + 1] = next;
        return new Bitmap(bitmap, s);
      }
      if (!k.equals(key)) {
        return this;
      }
      removed[0] = true;
      return without(i, bit);
    }

    private Bitmap without(int i, int bit) {
      Object[] s = new Object[slots.length - 2];
      System.arraycopy(slots, 0, s, 0, i);
      System.arraycopy(slots, i + 2, s, i, slots.length - i - 2);
      return new Bitmap(bitmap & ~bit, s);
    }

    static void diff(Bitmap a, Bitmap b, int shift, Change<Object, Object> change) {
      if (a == b) {
        return;
      }
      if (shift >= 32) {
        diffFlat(a, b, change);
        return;
      }
      if (a.bitmap == b.bitmap) {
        // The same slots in the same places (most nodes of two images of one lineage): compared pairwise,
        // in the same order as below, skipping each entry or subtree the two share.
        Object[] as = a.slots;
        Object[] bs = b.slots;
        for (int i = 0; i < as.length; i += 2) {
          if (as[i] != bs[i] || as[i + 1] != bs[i + 1]) {
            slot(as[i], as[i + 1], true, bs[i], bs[i + 1], true, shift, change);
          }
        }
        return;
      }
      int bits = a.bitmap | b.bitmap;
      while (bits != 0) {
        int bit = bits & -bits;
        bits &= bits - 1;
        Object ak = null;
        Object av = null;
        Object bk = null;
        Object bv = null;
        boolean inA = (a.bitmap & bit) != 0;
        boolean inB = (b.bitmap & bit) != 0;
        if (inA) {
          int i = 2 * Integer.bitCount(a.bitmap & (bit - 1));
          ak = a.slots[i];
          av = a.slots[i + 1];
        }
        if (inB) {
          int i = 2 * Integer.bitCount(b.bitmap & (bit - 1));
          bk = b.slots[i];
          bv = b.slots[i + 1];
        }
        slot(ak, av, inA, bk, bv, inB, shift, change);
      }
    }

    /** Reports what differs between one slot of two nodes at {@code shift} (either may lack it). */
    private static void slot(Object ak, Object av, boolean inA, Object bk, Object bv, boolean inB, int shift,
        Change<Object, Object> change) {
      if (inA && inB && ak == null && bk == null) {
        diff((Bitmap) av, (Bitmap) bv, shift + BITS, change);
      } else if (inA && inB && ak != null && bk != null && ak.equals(bk)) {
        if (av != bv) {
          change.changed(ak, av, bv);
        }
      } else {
        // One side lacks the slot, or the shapes differ (an entry beside a subtree, or two keys in one slot): compare them flat.
        diffFlat(inA ? slot(ak, av) : EMPTY_NODE, inB ? slot(bk, bv) : EMPTY_NODE, change);
      }
    }

    private static final Bitmap EMPTY_NODE = new Bitmap(0, new Object[0]);

    /** A slot as a node: its subtree, or a node of its one entry. */
    private static Bitmap slot(Object k, Object v) {
      return k == null ? (Bitmap) v : new Bitmap(0, new Object[] {k, v});
    }

    /** Compares two subtrees entry by entry, whatever their shapes. */
    private static void diffFlat(Bitmap a, Bitmap b, Change<Object, Object> change) {
      Map<Object, Object> before = new HashMap<>();
      a.forEach(before::put);
      b.forEach((k, v) -> {
        Object old = before.remove(k);
        if (old != v) {
          change.changed(k, old, v);
        }
      });
      before.forEach((k, v) -> change.changed(k, v, null));
    }

    void forEach(BiConsumer<Object, Object> action) {
      for (int i = 0; i < slots.length; i += 2) {
        if (slots[i] == null) {
          ((Bitmap) slots[i + 1]).forEach(action);
        } else {
          action.accept(slots[i], slots[i + 1]);
        }
      }
    }
  }

}
