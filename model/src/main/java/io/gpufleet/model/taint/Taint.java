package io.gpufleet.model.taint;

import java.util.Objects;

/** A node taint: {@code key=value:effect}; the value may be empty. */
public record Taint(String key, String value, TaintEffect effect) {

  public Taint {
    Objects.requireNonNull(key, "key");
    value = value == null ? "" : value;
    Objects.requireNonNull(effect, "effect");
  }

  public static Taint of(String key, String value, TaintEffect effect) {
    return new Taint(key, value, effect);
  }

  /** Same key and effect: the identity of a taint on a node (values may differ). */
  public boolean sameKeyAndEffect(Taint other) {
    return key.equals(other.key) && effect == other.effect;
  }

  // equals and hashCode written out, as the record's own would be (RecordMethodsTest): those are
  // linked at their first call by ObjectMethods' bootstrap, which spins method-handle classes that
  // no AOT cache holds, and every schedule compares these.
  @Override
  public boolean equals(Object o) {
    return o instanceof Taint t && Objects.equals(key, t.key) && Objects.equals(value, t.value)
        && Objects.equals(effect, t.effect);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * Objects.hashCode(key) + Objects.hashCode(value)) + Objects.hashCode(effect);
  }

  /** {@code nvidia.com/gpu=true:NoSchedule}, as {@code kubectl taint} writes it. */
  @Override
  public String toString() {
    return key + (value.isEmpty() ? "" : "=" + value) + ":" + effect;
  }
}
