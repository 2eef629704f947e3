package io.gpufleet.model.dra;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A taint on a device ({@code resource.k8s.io/v1} {@code DeviceTaint}), written by its driver in the
 * ResourceSlice or added by a {@link DeviceTaintRule}: {@code key}, {@code value} and {@code effect},
 * and {@code timeAdded}, which the API server sets on create when it is not given.
 */
public record DeviceTaint(String key, String value, Effect effect, Optional<Instant> timeAdded) {

  /**
   * {@code DeviceTaintEffect}: {@code None} is informational; {@code NoSchedule} keeps new claims off the
   * device; {@code NoExecute} also evicts the pods whose claims hold it (k8s.io/api resource/v1 types.go).
   */
  public enum Effect {
    NONE("None"), NO_SCHEDULE("NoSchedule"), NO_EXECUTE("NoExecute");

    private final String wire;

    Effect(String wire) {
      this.wire = wire;
    }

    public String wire() {
      return wire;
    }

    public static Optional<Effect> of(String wire) {
      for (Effect e : values()) {
        if (e.wire.equals(wire)) {
          return Optional.of(e);
        }
      }
      return Optional.empty();
    }
  }

  public DeviceTaint {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(effect, "effect");
    timeAdded = timeAdded == null ? Optional.empty() : timeAdded;
  }

  public DeviceTaint(String key, String value, Effect effect) {
    this(key, value, effect, Optional.empty());
  }

  /** The same taint, added at {@code when} unless it already says when. */
  public DeviceTaint addedAt(Instant when) {
    return timeAdded.isPresent() ? this : new DeviceTaint(key, value, effect, Optional.of(when));
  }

  /** Whether it keeps a request that does not tolerate it off the device: NoSchedule and NoExecute. */
  public boolean restrictsAllocation() {
    return effect != Effect.NONE;
  }

  @Override
  public String toString() {
    return key + (value.isEmpty() ? "" : "=" + value) + ":" + effect.wire();
  }
}
