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

  /** {@code nvidia.com/gpu=true:NoSchedule}, as {@code kubectl taint} writes it. */
  @Override
  public String toString() {
    return key + (value.isEmpty() ? "" : "=" + value) + ":" + effect;
  }
}
