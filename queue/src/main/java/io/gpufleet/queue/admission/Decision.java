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
   * Needs preemption and found targets ({@code issuePreemptions}): each target is evicted (Evicted,
   * reason Preempted; Preempted, with its reason) and the workload waits for them, QuotaReserved
   * false with reason WaitingForPreemptedWorkloads and "... Pending the preemption of N workload(s)".
   */
  record Preempting(String workload, String clusterQueue, List<Eviction> targets, String message,
      List<WorkloadCondition> conditions) implements Decision {}

  /**
   * A workload to evict: its reason (InClusterQueue, InCohortReclamation, InCohortReclaimWhileBorrowing)
   * and the conditions' message ({@code preemptionMessage}; the twin has no UIDs, so UNKNOWN, as
   * upstream writes a missing one).
   */
  record Eviction(String workload, String reason, String message) {}

  /**
   * Not considered: its LocalQueue or ClusterQueue does not exist, or the ClusterQueue is inactive;
   * Kueue leaves the workload's status as it is. {@code queuedIn} is the ClusterQueue whose queue
   * still holds it (an inactive one); {@code why} is the ClusterQueue's own condition message.
   */
  record NotConsidered(String workload, java.util.Optional<String> queuedIn, String why) implements Decision {}
}
