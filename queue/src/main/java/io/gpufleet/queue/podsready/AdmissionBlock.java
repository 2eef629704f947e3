package io.gpufleet.queue.podsready;

import io.gpufleet.queue.api.WaitForPodsReady;
import io.gpufleet.queue.api.WorkloadCondition;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;

/**
 * {@code waitForPodsReady.blockAdmission}: Kueue admits nothing new while some workload holding quota
 * is not PodsReady=True ({@code pkg/cache/scheduler/cache.go} PodsReadyForAllAdmittedWorkloads,
 * {@code pkg/scheduler/scheduler.go} waitForPodsReadyIfNeeded); the workload it would admit meanwhile
 * gets QuotaReserved False, WaitingForPodsReady (UnadmittedWorkloadsObservability on), "waiting for
 * all admitted workloads to be in PodsReady condition".
 */
public final class AdmissionBlock {

  /** {@code WorkloadQuotaReservedReasonWaitingForPodsReady}. */
  public static final String WAITING_FOR_PODS_READY = "WaitingForPodsReady";
  static final String MESSAGE = "waiting for all admitted workloads to be in PodsReady condition";

  private AdmissionBlock() {}

  /** Every workload holding quota has PodsReady True (none holding quota: ready). */
  public static boolean allReady(Collection<Optional<WorkloadCondition>> podsReadyOfQuotaHolders) {
    return podsReadyOfQuotaHolders.stream().allMatch(c -> c.filter(WorkloadCondition::status).isPresent());
  }

  /**
   * The QuotaReserved condition a workload that fits gets instead of its admission, when admission
   * is blocked; empty when it is not.
   */
  public static Optional<WorkloadCondition> blocked(Optional<WaitForPodsReady> config,
      Collection<Optional<WorkloadCondition>> podsReadyOfQuotaHolders, Instant now) {
    if (config.isEmpty() || !config.get().blockAdmission() || allReady(podsReadyOfQuotaHolders)) {
      return Optional.empty();
    }
    return Optional.of(WorkloadCondition.pending(WAITING_FOR_PODS_READY, MESSAGE, now));
  }
}
