package io.gpufleet.queue.admission;

import io.gpufleet.queue.api.ClusterQueue;
import io.gpufleet.queue.api.PreemptionPolicy;
import io.gpufleet.queue.api.Workload;
import io.gpufleet.queue.quota.FlavorResource;
import io.gpufleet.queue.quota.QuotaTree;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kueue's classical preemption within a ClusterQueue ({@code pkg/scheduler/preemption/preemption.go}
 * {@code classicalPreemptions}, {@code fillBackWorkloads}; candidates as
 * {@code classical/candidate_generator.go} orders them with {@code common/ordering.go}): the
 * ClusterQueue's admitted workloads that use a flavor-resource needing preemption and that its
 * {@code withinClusterQueue} policy allows (LowerPriority; LowerOrNewerEqualPriority; Any), lowest
 * priority first, then the most recently reserved; removed one by one until the incoming workload
 * fits, then those not needed are put back, last removed first. As the preemption oracle it answers
 * Preempt when targets exist and NoCandidates otherwise ({@code preemption_oracle.go}).
 * Not modelled: reclaiming from other ClusterQueues of the cohort (reclaimWithinCohort,
 * borrowWithinCohort), fair sharing, evicted candidates first.
 */
public final class ClusterQueuePreemptor implements PreemptionOracle {

  private final Map<String, ClusterQueue> queues;
  private final List<Workload> admitted;
  private final Instant now;

  /** Over the ClusterQueues and the admitted workloads of one snapshot; {@code now} for a reservation without a time. */
  public ClusterQueuePreemptor(Map<String, ClusterQueue> queues, List<Workload> admitted, Instant now) {
    this.queues = Map.copyOf(queues);
    this.admitted = admitted.stream().filter(w -> w.admission().isPresent()).toList();
    this.now = now;
  }

  /** {@code preemptioncommon.SatisfiesPreemptionPolicy}. */
  static boolean satisfies(PreemptionPolicy.Policy policy, Workload preemptor, Workload candidate) {
    boolean lower = preemptor.priority() > candidate.priority();
    return switch (policy) {
      case NEVER -> false;
      case LOWER_PRIORITY -> lower;
      case LOWER_OR_NEWER_EQUAL_PRIORITY -> lower || preemptor.priority() == candidate.priority()
          && preemptor.creationTime().isBefore(candidate.creationTime());
      case ANY -> true;
    };
  }

  private static boolean usesAny(Workload w, Set<FlavorResource> frs) {
    return Scheduler.usage(w.admission().orElseThrow()).keySet().stream().anyMatch(frs::contains);
  }

  /**
   * The workloads to preempt so that {@code usage} fits in the ClusterQueue, empty when no set of
   * allowed candidates makes room ({@code GetTargets}).
   */
  public List<Workload> targets(QuotaTree tree, String clusterQueue, Workload incoming, Map<FlavorResource, Long> usage,
      Set<FlavorResource> needPreemption) {
    ClusterQueue cq = queues.get(clusterQueue);
    if (cq == null || cq.preemption().withinClusterQueue() == PreemptionPolicy.Policy.NEVER) {
      return List.of();
    }
    List<Workload> candidates = new ArrayList<>();
    for (Workload w : admitted) {
      if (w.admission().get().clusterQueue().equals(clusterQueue) && !w.key().equals(incoming.key())
          && usesAny(w, needPreemption) && satisfies(cq.preemption().withinClusterQueue(), incoming, w)) {
        candidates.add(w);
      }
    }
    // CandidatesOrdering: lower priority first, then the later quota reservation, then the name (upstream: UID).
    candidates.sort(Comparator.comparingInt(Workload::priority)
        .thenComparing((Workload w) -> w.quotaReservedAt().orElse(now), Comparator.reverseOrder())
        .thenComparing(Workload::key));
    List<Workload> targets = new ArrayList<>();
    try {
      for (Workload c : candidates) {
        tree.removeUsage(clusterQueue, Scheduler.usage(c.admission().get()));
        targets.add(c);
        if (tree.fits(clusterQueue, usage)) {
          for (int i = targets.size() - 2; i >= 0; i--) {
            tree.addUsage(clusterQueue, Scheduler.usage(targets.get(i).admission().get()));
            if (tree.fits(clusterQueue, usage)) {
              // fillBackWorkloads: O(1) deletion, the last target takes the freed place.
              targets.set(i, targets.get(targets.size() - 1));
              targets.remove(targets.size() - 1);
            } else {
              tree.removeUsage(clusterQueue, Scheduler.usage(targets.get(i).admission().get()));
            }
          }
          return List.copyOf(targets);
        }
      }
      return List.of();
    } finally {
      for (Workload t : targets) {
        tree.addUsage(clusterQueue, Scheduler.usage(t.admission().get()));
      }
    }
  }

  @Override
  public Simulation simulate(QuotaTree tree, String clusterQueue, Workload workload, FlavorResource fr, long quantity) {
    List<Workload> targets = targets(tree, clusterQueue, workload, Map.of(fr, quantity), Set.of(fr));
    if (targets.isEmpty()) {
      return new Simulation(Possibility.NO_CANDIDATES, tree.heightOfLowestSubtreeThatFits(clusterQueue, fr, quantity)
          .height());
    }
    targets.forEach(t -> tree.removeUsage(clusterQueue, Scheduler.usage(t.admission().get())));
    int borrow = tree.heightOfLowestSubtreeThatFits(clusterQueue, fr, quantity).height();
    targets.forEach(t -> tree.addUsage(clusterQueue, Scheduler.usage(t.admission().get())));
    return new Simulation(Possibility.PREEMPT, borrow);
  }
}
