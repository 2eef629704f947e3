package io.gpufleet.model.dra;

import io.gpufleet.model.taint.Toleration;
import java.util.Objects;
import java.util.Optional;

/**
 * A request's toleration of device taints ({@code resource.k8s.io/v1} {@code DeviceToleration}):
 * an empty key with {@code Exists} matches every taint, an absent effect every effect;
 * {@code tolerationSeconds} (NoExecute only) bounds how long an allocated device's taint is tolerated.
 */
public record DeviceToleration(String key, Operator operator, String value, Optional<DeviceTaint.Effect> effect,
    Optional<Long> tolerationSeconds) {

  /** {@code DeviceTolerationOperator}; the API defaults it to {@code Equal}. */
  public enum Operator {
    EQUAL("Equal"), EXISTS("Exists");

    private final String wire;

    Operator(String wire) {
      this.wire = wire;
    }

    public String wire() {
      return wire;
    }
  }

  public DeviceToleration {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(operator, "operator");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(effect, "effect");
    Objects.requireNonNull(tolerationSeconds, "tolerationSeconds");
  }

  /**
   * {@code ToleratesTaint} (k8s.io/dynamic-resource-allocation/resourceclaim): the effect, when set,
   * must be the taint's; the key, when set, the taint's; {@code Equal} compares the value,
   * {@code Exists} takes any.
   */
  public boolean tolerates(DeviceTaint taint) {
    return Toleration.tolerates(effect.isEmpty() || effect.get() == taint.effect(), key,
        operator == Operator.EXISTS, value, taint.key(), taint.value());
  }
}
