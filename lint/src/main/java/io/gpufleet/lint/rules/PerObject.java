package io.gpufleet.lint.rules;

import io.gpufleet.lint.Located;
import io.gpufleet.lint.ObjectRef;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * Values gathered per object (a NodePool offers one target per instance type, a finding is wanted
 * once per pool), kept in the order the objects were first seen so findings come out in input order.
 */
final class PerObject<L extends Located<?>, V> {

  private record Entry<L, V>(L object, V value) {}

  private final Map<ObjectRef, Entry<L, V>> entries = new LinkedHashMap<>();

  /** The object's value, made on first sight. */
  V of(L object, Supplier<V> make) {
    return entries.computeIfAbsent(object.ref(), k -> new Entry<>(object, make.get())).value();
  }

  /** The object's value, or {@code fallback} when none was gathered for it. */
  V get(L object, V fallback) {
    Entry<L, V> e = entries.get(object.ref());
    return e == null ? fallback : e.value();
  }

  void forEach(BiConsumer<L, V> each) {
    entries.values().forEach(e -> each.accept(e.object(), e.value()));
  }
}
