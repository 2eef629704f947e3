package io.gpufleet.queue.podsready;

import io.gpufleet.queue.api.WaitForPodsReady;
import io.gpufleet.queue.api.WorkloadCondition;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * What Kueue's workload controller does once an admitted workload's pods missed their timeout
 * ({@code pkg/controller/core/workload_controller.go} reconcileNotReadyTimeout and triggerDeactivation),
 * and when the requeue backoff it set ends (the Requeued condition's BackoffFinished).
 */
public final class PodsReadyTimeout {

  /** {@code WorkloadEvictedByPodsReadyTimeout}: the Evicted condition's reason. */
  public static final String EVICTED_BY_PODS_READY_TIMEOUT = "PodsReadyTimeout";
  /** {@code WorkloadRequeuingLimitExceeded}: the DeactivationTarget condition's reason. */
  public static final String REQUEUING_LIMIT_EXCEEDED = "RequeuingLimitExceeded";
  /** {@code WorkloadBackoffFinished}: the Requeued condition's reason once the backoff ends. */
  public static final String BACKOFF_FINISHED = "BackoffFinished";

  /** What the timeout leads to. */
  public sealed interface Outcome {
    /** The reason of the event Kueue records ({@code evict.go} reportEvictedWorkload: Evicted + "DueTo" + reason...). */
    String eventReason();

    /** The message of the Evicted condition and the event. */
    String message();
  }

  /**
   * Evicted with reason PodsReadyTimeout; requeued after the backoff: {@code requeueState.count}
   * becomes {@code count} and {@code requeueAt} is the time the backoff ends.
   */
  public record Evicted(String cause, String message, int count, Instant requeueAt) implements Outcome {
    @Override
    public String eventReason() {
      return "Evicted" + "DueTo" + EVICTED_BY_PODS_READY_TIMEOUT;
    }
  }

  /**
   * Past {@code backoffLimitCount}: the workload gets DeactivationTarget (RequeuingLimitExceeded,
   * "exceeding the maximum number of re-queuing retries"), then {@code spec.active=false}, and is
   * evicted with reason Deactivated (its cause appended) and this message.
   */
  public record Deactivated(String deactivationMessage) implements Outcome {
    @Override
    public String eventReason() {
      return "Evicted" + "DueTo" + "Deactivated" + "DueTo" + REQUEUING_LIMIT_EXCEEDED;
    }

    @Override
    public String message() {
      return "The workload is deactivated due to " + deactivationMessage;
    }

    /** The Evicted condition's reason: {@code DeactivatedDueToRequeuingLimitExceeded}. */
    public String evictedReason() {
      return "Deactivated" + "DueTo" + REQUEUING_LIMIT_EXCEEDED;
    }
  }

  private PodsReadyTimeout() {}

  /**
   * The timeout of workload {@code key} ({@code namespace/name}) is exceeded with {@code cause}; its
   * requeue count so far is {@code count}. The backoff is {@code base * 2^(count)} for the new count
   * (so 60 s, 120 s, 240 s, ... with the defaults), capped at the maximum, with Kueue's small jitter
   * drawn from {@code random}; {@code requeueAt} is stored as the API stores a time, in whole seconds.
   */
  public static Outcome exceeded(String key, String cause, int count, WaitForPodsReady config, Instant now,
      DoubleSupplier random) {
    WaitForPodsReady.RequeuingStrategy s = config.requeuingStrategy();
    if (s.backoffLimitCount().isPresent() && count + 1 > s.backoffLimitCount().get()) {
      return new Deactivated("exceeding the maximum number of re-queuing retries");
    }
    int next = count + 1;
    Duration wait = new Backoff(Duration.ofSeconds(s.backoffBaseSeconds()), Duration.ofSeconds(s.backoffMaxSeconds()),
        2, Backoff.REQUEUE_JITTER).waitTime(next, random);
    return new Evicted(cause, "Exceeded the PodsReady timeout " + key, next,
        now.plus(wait).truncatedTo(ChronoUnit.SECONDS));
  }

  /**
   * The Requeued condition of a workload evicted by the timeout, at {@code now}: still False (its
   * eviction's reason and message) until {@code requeueAt}, then True, BackoffFinished, "The workload
   * backoff was finished" ({@code workload_controller.go} Reconcile).
   */
  public static WorkloadCondition requeued(WorkloadCondition evictedRequeued, Optional<Instant> requeueAt, Instant now) {
    if (requeueAt.isPresent() && requeueAt.get().isAfter(now)) {
      return evictedRequeued;
    }
    return new WorkloadCondition("Requeued", true, BACKOFF_FINISHED, "The workload backoff was finished", now);
  }
}
