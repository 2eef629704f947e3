package io.gpufleet.queue.api;

import java.time.Instant;

/**
 * A condition on a Workload in Kueue's words ({@code apis/kueue/v1beta2/workload_types.go};
 * messages from {@code pkg/workload/workload.go} and {@code pkg/scheduler/scheduler.go}).
 */
public record WorkloadCondition(String type, boolean status, String reason, String message, Instant lastTransitionTime) {

  public static final String QUOTA_RESERVED = "QuotaReserved";
  public static final String ADMITTED = "Admitted";

  /** {@code SetQuotaReservation}: "Quota reserved in ClusterQueue <cq>". */
  public static WorkloadCondition quotaReserved(String clusterQueue, Instant now) {
    return new WorkloadCondition(QUOTA_RESERVED, true, "QuotaReserved", "Quota reserved in ClusterQueue " + clusterQueue,
        now);
  }

  /** {@code SyncAdmittedCondition} once quota is reserved and there are no admission checks. */
  public static WorkloadCondition admitted(Instant now) {
    return new WorkloadCondition(ADMITTED, true, "Admitted", "The workload is admitted", now);
  }

  /** {@code UnsetQuotaReservationWithCondition}: QuotaReserved False with the scheduler's reason and message. */
  public static WorkloadCondition pending(String reason, String message, Instant now) {
    return new WorkloadCondition(QUOTA_RESERVED, false, reason, message, now);
  }

  /** {@code SyncAdmittedCondition} without a reservation: reason NoReservation. */
  public static WorkloadCondition noReservation(Instant now) {
    return new WorkloadCondition(ADMITTED, false, "NoReservation", "The workload has no reservation", now);
  }
}
