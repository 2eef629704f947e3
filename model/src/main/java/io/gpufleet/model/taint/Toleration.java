package io.gpufleet.model.taint;

import io.gpufleet.model.wire.WireEnum;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A pod's toleration. An empty key with {@code Exists} tolerates every taint; an absent effect
 * matches every effect; {@code tolerationSeconds} bounds how long a NoExecute taint is tolerated.
 */
public record Toleration(
    String key, Operator operator, String value, Optional<TaintEffect> effect, OptionalLong tolerationSeconds) {

  /** Toleration operators; an absent operator means {@code Equal}. */
  public enum Operator implements WireEnum {
    EQUAL,
    EXISTS;

    public static Optional<Operator> fromWire(String s) {
      return WireEnum.fromWire(Operator.class, s);
    }

    @Override
    public String toString() {
      return wireName();
    }
  }

  public Toleration {
    key = key == null ? "" : key;
    Objects.requireNonNull(operator, "operator");
    value = value == null ? "" : value;
    Objects.requireNonNull(effect, "effect");
    Objects.requireNonNull(tolerationSeconds, "tolerationSeconds");
  }

  public static Toleration exists(String key, TaintEffect effect) {
    return new Toleration(key, Operator.EXISTS, "", Optional.ofNullable(effect), OptionalLong.empty());
  }

  public static Toleration equal(String key, String value, TaintEffect effect) {
    return new Toleration(key, Operator.EQUAL, value, Optional.ofNullable(effect), OptionalLong.empty());
  }

  /** Tolerates everything: {@code operator: Exists} with no key and no effect. */
  public static Toleration everything() {
    return new Toleration("", Operator.EXISTS, "", Optional.empty(), OptionalLong.empty());
  }

  public Toleration withSeconds(long seconds) {
    return new Toleration(key, operator, value, effect, OptionalLong.of(seconds));
  }

  /** {@code ToleratesTaint} of the core API. */
  public boolean tolerates(Taint taint) {
    return tolerates(effect.isEmpty() || effect.get() == taint.effect(), key, operator == Operator.EXISTS, value,
        taint.key(), taint.value());
  }

  /**
   * The rule a toleration matches a taint by, for nodes' taints and devices' alike
   * ({@code ToleratesTaint} of the core API and of {@code k8s.io/dynamic-resource-allocation/resourceclaim}):
   * the effect, when set, must be the taint's ({@code effectMatches}); the key, when set, the taint's;
   * {@code Equal} compares the value, {@code Exists} takes any.
   */
  public static boolean tolerates(boolean effectMatches, String key, boolean exists, String value, String taintKey,
      String taintValue) {
    if (!effectMatches) {
      return false;
    }
    if (!key.isEmpty() && !key.equals(taintKey)) {
      return false;
    }
    return exists || value.equals(taintValue);
  }

  @Override
  public String toString() {
    String k = key.isEmpty() ? "<all>" : key;
    String v = operator == Operator.EQUAL ? "=" + value : " " + operator;
    String e = effect.map(x -> ":" + x).orElse("");
    String s = tolerationSeconds.isPresent() ? " for " + tolerationSeconds.getAsLong() + "s" : "";
    return k + v + e + s;
  }
}
