package io.gpufleet.queue.podsready;

import io.gpufleet.queue.api.WaitForPodsReady;
import io.gpufleet.queue.api.WorkloadCondition;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Whether an admitted workload is waiting on its pods against a timeout, and how long it has left
 * ({@code pkg/controller/core/workload_controller.go} admittedNotReadyWorkload): counted from the
 * Admitted condition's transition while PodsReady is absent or WaitForStart (cause WaitForStart,
 * {@code timeout}), from PodsReady's own transition while WaitForRecovery (cause WaitForRecovery,
 * {@code recoveryTimeout}, when set). Zero left means the timeout is exceeded.
 */
public final class NotReadyTimeout {

  /** The underlying cause ({@code WaitForStart} or {@code WaitForRecovery}) and the time left, never negative. */
  public record Waiting(String cause, Duration left) {}

  private NotReadyTimeout() {}

  /**
   * @param config {@code waitForPodsReady}; empty when the controller has none
   * @param admittedSince the Admitted condition's transition time while it is True; empty when not admitted
   * @param podsReady the PodsReady condition, if any
   */
  public static Optional<Waiting> check(Optional<WaitForPodsReady> config, Optional<Instant> admittedSince,
      Optional<WorkloadCondition> podsReady, Instant now) {
    if (config.isEmpty() || admittedSince.isEmpty()) {
      return Optional.empty();
    }
    if (podsReady.isPresent() && podsReady.get().status()) {
      return Optional.empty();
    }
    if (podsReady.isEmpty() || podsReady.get().reason().equals(PodsReadyCondition.WAIT_FOR_START)
        || podsReady.get().reason().equals(PodsReadyCondition.TYPE)) {
      Duration elapsed = Duration.between(admittedSince.get(), now);
      return Optional.of(new Waiting(PodsReadyCondition.WAIT_FOR_START, max0(config.get().timeout().minus(elapsed))));
    }
    if (podsReady.get().reason().equals(PodsReadyCondition.WAIT_FOR_RECOVERY) && config.get().recoveryTimeout().isPresent()) {
      Duration elapsed = Duration.between(podsReady.get().lastTransitionTime(), now);
      return Optional.of(new Waiting(PodsReadyCondition.WAIT_FOR_RECOVERY, max0(config.get().recoveryTimeout().get()
          .minus(elapsed))));
    }
    return Optional.empty();
  }

  private static Duration max0(Duration d) {
    return d.isNegative() ? Duration.ZERO : d;
  }
}
