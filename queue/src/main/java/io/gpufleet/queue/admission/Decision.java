package io.gpufleet.queue.admission;

import io.gpufleet.queue.api.Admission;
import io.gpufleet.queue.api.WorkloadCondition;
import java.util.List;

/** What one scheduling cycle decided for a workload at the head of its ClusterQueue. */
public sealed interface Decision {

  String workload();

  /** Quota reserved (and, without admission checks, admitted): QuotaReserved and Admitted true. */
  record Admitted(String workload, Admission admission, int borrowing, List<WorkloadCondition> conditions)
      implements Decision {}

  /**
   * Not admitted this cycle: QuotaReserved false with Kueue's reason ({@code WaitingForQuota},
   * {@code NoMatchingFlavor}, {@code ExceedsMaxQuota}, {@code Misconfigured}, ...) and message.
   * {@code inadmissible} says the workload leaves the active queue (a namespace mismatch, or
   * BestEffortFIFO after a failed attempt), rather than staying at the head (StrictFIFO).
   */
  record Pending(String workload, String clusterQueue, String reason, String message, boolean inadmissible,
      List<WorkloadCondition> conditions) implements Decision {}

  /**
   * Needs preemption and found targets ({@code issuePreemptions}): the targets are evicted (reason
   * Preempted, InClusterQueue) and the workload waits for them, QuotaReserved false with reason
   * WaitingForPreemptedWorkloads and the message "... Pending the preemption of N workload(s)".
   * {@code targetMessage} is the Evicted/Preempted conditions' message on each target
   * ({@code preemptionMessage}; the twin has no UIDs, so UNKNOWN, as upstream writes a missing one).
   */
  record Preempting(String workload, String clusterQueue, List<String> targets, String message,
      List<WorkloadCondition> conditions, String targetMessage) implements Decision {}

  /**
   * Not considered: its LocalQueue or ClusterQueue does not exist, or the ClusterQueue is inactive;
   * Kueue leaves the workload's status as it is. {@code queuedIn} is the ClusterQueue whose queue
   * still holds it (an inactive one); {@code why} is the ClusterQueue's own condition message.
   */
  record NotConsidered(String workload, java.util.Optional<String> queuedIn, String why) implements Decision {}
}
