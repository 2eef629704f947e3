package io.gpufleet.autoscaler.provisioning;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * A map over another ({@code under}) that it reads and never changes, its own puts and removes on top:
 * it holds what a {@link LinkedHashMap} copy of {@code under} changed alike would hold, in that copy's
 * order (a key put again keeps its place; one put after a remove goes last). A round going on from a
 * kept state reads the state's placements through it instead of copying them
 * ({@link ProvisioningRound#layerOn}). No null keys or values.
 */
final class LayeredMap<K, V> extends AbstractMap<K, V> {
  private final Map<K, V> under;
  /** New values of {@code under}'s keys still in their place; made at the first. */
  private Map<K, V> replaced;
  /** {@code under}'s keys removed here (those put again since are in {@link #appended}); made at the first. */
  private Set<K> removed;
  /** The keys put here that stand after {@code under}'s, in the order they came. */
  private final LinkedHashMap<K, V> appended = new LinkedHashMap<>();

  LayeredMap(Map<K, V> under) {
    this.under = under;
  }

  private boolean hidden(Object key) {
    return removed != null && removed.contains(key);
  }

  @Override
  public V get(Object key) {
    V v = appended.get(key);
    if (v != null || hidden(key)) {
      return v;
    }
    v = replaced == null ? null : replaced.get(key);
    return v != null ? v : under.get(key);
  }

  @Override
  public boolean containsKey(Object key) {
    return get(key) != null;
  }

  @Override
  public V put(K key, V value) {
    if (!appended.containsKey(key) && !hidden(key) && under.containsKey(key)) {
      if (replaced == null) {
        replaced = new HashMap<>();
      }
      V old = replaced.put(key, value);
      return old != null ? old : under.get(key);
    }
    return appended.put(key, value);
  }

  @Override
  public V remove(Object key) {
    V v = appended.remove(key);
    if (v != null || hidden(key) || !under.containsKey(key)) {
      return v;
    }
    if (removed == null) {
      removed = new HashSet<>();
    }
    @SuppressWarnings("unchecked")
    K k = (K) key;
    removed.add(k);
    V old = replaced == null ? null : replaced.remove(key);
    return old != null ? old : under.get(key);
  }

  @Override
  public Set<Entry<K, V>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return under.size() - (removed == null ? 0 : removed.size()) + appended.size();
      }

      @Override
      public Iterator<Entry<K, V>> iterator() {
        return new Iterator<>() {
          private final Iterator<Entry<K, V>> below = under.entrySet().iterator();
          private final Iterator<Entry<K, V>> above = appended.entrySet().iterator();
          private Entry<K, V> next = advance();

          private Entry<K, V> advance() {
            while (below.hasNext()) {
              Entry<K, V> e = below.next();
              if (!hidden(e.getKey())) {
                V v = replaced == null ? null : replaced.get(e.getKey());
                return new SimpleImmutableEntry<>(e.getKey(), v != null ? v : e.getValue());
              }
            }
            return above.hasNext() ? new SimpleImmutableEntry<>(above.next()) : null;
          }

          @Override
          public boolean hasNext() {
            return next != null;
          }

          @Override
          public Entry<K, V> next() {
            if (next == null) {
              throw new NoSuchElementException();
            }
            Entry<K, V> e = next;
            next = advance();
            return e;
          }
        };
      }
    };
  }
}
