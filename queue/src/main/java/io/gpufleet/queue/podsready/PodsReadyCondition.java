package io.gpufleet.queue.podsready;

import io.gpufleet.queue.api.WorkloadCondition;
import java.time.Instant;
import java.util.Optional;

/**
 * The Workload's PodsReady condition as Kueue's Job reconciler writes it
 * ({@code pkg/controller/jobframework/reconciler.go} generatePodsReadyCondition), with its reasons
 * ({@code apis/kueue/v1beta2/workload_types.go}) and messages. The transition time moves only when the
 * status changes ({@code apimeta.SetStatusCondition}).
 */
public final class PodsReadyCondition {

  public static final String TYPE = "PodsReady";
  public static final String WAIT_FOR_START = "WaitForStart";
  public static final String WAIT_FOR_RECOVERY = "WaitForRecovery";
  public static final String STARTED = "Started";
  public static final String RECOVERED = "Recovered";
  static final String NOT_READY = "Not all pods are ready or succeeded";
  static final String WAITING_FOR_RECOVERY = "At least one pod has failed, waiting for recovery";
  static final String READY = "All pods reached readiness and the workload is running";

  private PodsReadyCondition() {}

  /**
   * The condition for a workload that is {@code admitted} (or not) whose pods are {@code podsReady}
   * (or not), given its current condition.
   */
  public static WorkloadCondition next(boolean admitted, boolean podsReady, Optional<WorkloadCondition> current,
      Instant now) {
    if (!admitted) {
      return set(current, false, WAIT_FOR_START, NOT_READY, now);
    }
    if (podsReady) {
      boolean recovering = current.filter(c -> c.reason().equals(WAIT_FOR_RECOVERY) || c.reason().equals(RECOVERED))
          .isPresent();
      return set(current, true, recovering ? RECOVERED : STARTED, READY, now);
    }
    if (current.isEmpty()) {
      return set(current, false, WAIT_FOR_START, NOT_READY, now);
    }
    if (current.get().status() || current.get().reason().equals(WAIT_FOR_RECOVERY)) {
      return set(current, false, WAIT_FOR_RECOVERY, WAITING_FOR_RECOVERY, now);
    }
    // WaitForStart and the older "PodsReady" reason alike.
    return set(current, false, WAIT_FOR_START, NOT_READY, now);
  }

  private static WorkloadCondition set(Optional<WorkloadCondition> current, boolean status, String reason,
      String message, Instant now) {
    Instant since = current.filter(c -> c.status() == status).map(WorkloadCondition::lastTransitionTime).orElse(now);
    return new WorkloadCondition(TYPE, status, reason, message, since);
  }
}
