package io.gpufleet.queue.admission;

import io.gpufleet.queue.api.ClusterQueue;
import io.gpufleet.queue.api.FairSharingConfig;
import io.gpufleet.queue.api.PreemptionPolicy;
import io.gpufleet.queue.api.Workload;
import io.gpufleet.queue.quota.DominantResourceShare;
import io.gpufleet.queue.quota.FlavorResource;
import io.gpufleet.queue.quota.QuotaTree;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kueue's preemption with fair sharing ({@code pkg/scheduler/preemption/preemption.go}
 * {@code fairPreemptions}, {@code runFirstFsStrategy}, {@code runSecondFsStrategy}; strategies from
 * {@code fairsharing/strategy.go}). Candidates are the workloads of the ClusterQueue its
 * {@code withinClusterQueue} policy allows and those of every ClusterQueue of the cohort tree that
 * borrows what is needed, as {@code reclaimWithinCohort} allows ({@code findCandidates}). With the
 * incoming workload's usage added, the ClusterQueues are visited as {@link FairSharingTargets}
 * orders them, the one with the highest share first: its own workloads are taken in order; while
 * the preemptor stays within its nominal quota of what it needs, others' are reclaimed
 * unconditionally (feature gate FairSharingPreemptWithinNominal, on by default); otherwise a
 * workload goes only if the first strategy holds for it, and those refused are offered to the
 * second strategy. Once the workload fits, the targets not needed are put back.
 */
final class FairSharingPreemptor {

  /** {@code kueue.InCohortFairSharingReason} and the other reasons of a Preempted condition. */
  static final String FAIR_SHARING = "InCohortFairSharing";
  static final String RECLAMATION = "InCohortReclamation";
  static final String IN_CLUSTER_QUEUE = "InClusterQueue";

  private final List<Workload> admitted;
  private final Instant now;
  private final List<FairSharingConfig.PreemptionStrategy> strategies;

  FairSharingPreemptor(List<Workload> admitted, Instant now, FairSharingConfig config) {
    this.admitted = admitted;
    this.now = now;
    // parseStrategies: an empty list is Kueue's default.
    this.strategies = config.preemptionStrategies().isEmpty() ? FairSharingConfig.DEFAULT_STRATEGIES
        : config.preemptionStrategies();
  }

  /** {@code fairsharing.LessThanOrEqualToFinalShare} (rule S2-a) and {@code LessThanInitialShare} (rule S2-b). */
  static boolean passes(FairSharingConfig.PreemptionStrategy s, DominantResourceShare preemptorNew,
      DominantResourceShare targetOld, DominantResourceShare targetNew) {
    return switch (s) {
      case LESS_THAN_OR_EQUAL_TO_FINAL_SHARE -> DominantResourceShare.compare(preemptorNew, targetNew) <= 0;
      case LESS_THAN_INITIAL_SHARE -> DominantResourceShare.compare(preemptorNew, targetOld) < 0;
    };
  }

  /** {@code fairPreemptions}: the workloads to preempt, empty when the strategies cannot make room. */
  List<ClusterQueuePreemptor.Target> targets(QuotaTree tree, ClusterQueue cq, Workload incoming,
      Map<FlavorResource, Long> usage, Set<FlavorResource> need) {
    List<Workload> candidates = candidates(tree, cq, incoming, need);
    if (candidates.isEmpty()) {
      return List.of();
    }
    candidates.sort(ClusterQueuePreemptor.candidatesOrdering(cq.name(), now));
    Run run = new Run(tree, cq.name(), usage, need);
    tree.addUsage(cq.name(), usage); // DRS values must include the incoming workload
    boolean fits;
    try {
      List<Workload> retry = new ArrayList<>();
      fits = run.first(candidates, strategies.getFirst(), retry);
      if (!fits && strategies.size() > 1) {
        fits = run.second(retry);
      }
    } finally {
      tree.removeUsage(cq.name(), usage);
    }
    List<ClusterQueuePreemptor.Target> targets = run.targets;
    if (fits) {
      ClusterQueuePreemptor.fillBack(tree, cq.name(), usage, targets, ClusterQueuePreemptor.Target::workload, true);
    }
    for (ClusterQueuePreemptor.Target t : targets) { // restoreSnapshot
      tree.addUsage(ClusterQueuePreemptor.cqOf(t.workload()), ClusterQueuePreemptor.usage(t.workload()));
    }
    return fits ? List.copyOf(targets) : List.of();
  }

  /** {@code findCandidates}, with {@code findCandidatesForPolicy} and {@code cqIsBorrowing}. */
  private List<Workload> candidates(QuotaTree tree, ClusterQueue cq, Workload incoming, Set<FlavorResource> need) {
    List<Workload> out = new ArrayList<>();
    if (cq.preemption().withinClusterQueue() != PreemptionPolicy.Policy.NEVER) {
      out.addAll(forPolicy(cq.name(), cq.preemption().withinClusterQueue(), incoming, need));
    }
    if (tree.cohortOf(cq.name()).isPresent() && cq.preemption().reclaimWithinCohort() != PreemptionPolicy.Policy.NEVER) {
      for (String other : tree.subtreeClusterQueues(tree.rootOf(cq.name()))) {
        if (!other.equals(cq.name()) && need.stream().anyMatch(fr -> tree.borrowingWith(other, fr, 0))) {
          out.addAll(forPolicy(other, cq.preemption().reclaimWithinCohort(), incoming, need));
        }
      }
    }
    return out;
  }

  private List<Workload> forPolicy(String cq, PreemptionPolicy.Policy policy, Workload incoming,
      Set<FlavorResource> need) {
    return admitted.stream().filter(w -> ClusterQueuePreemptor.cqOf(w).equals(cq) && !w.key().equals(incoming.key()))
        .filter(w -> ClusterQueuePreemptor.satisfies(policy, incoming, w))
        .filter(w -> ClusterQueuePreemptor.usage(w).keySet().stream().anyMatch(need::contains)).toList();
  }

  /** One preemption attempt on the snapshot: the targets taken so far, their usage out of the tree. */
  private final class Run {
    final QuotaTree tree;
    final String cq;
    final Map<FlavorResource, Long> usage;
    final Set<FlavorResource> need;
    final List<ClusterQueuePreemptor.Target> targets = new ArrayList<>();

    Run(QuotaTree tree, String cq, Map<FlavorResource, Long> usage, Set<FlavorResource> need) {
      this.tree = tree;
      this.cq = cq;
      this.usage = usage;
      this.need = need;
    }

    private void take(Workload w, String reason) {
      tree.removeUsage(ClusterQueuePreemptor.cqOf(w), ClusterQueuePreemptor.usage(w));
      targets.add(new ClusterQueuePreemptor.Target(w, reason));
    }

    /** {@code workloadFitsForFairSharing}: whether it fits, the incoming usage taken out for the check. */
    private boolean fits() {
      tree.removeUsage(cq, usage);
      try {
        return ClusterQueuePreemptor.fits(tree, cq, usage, true);
      } finally {
        tree.addUsage(cq, usage);
      }
    }

    /** {@code runFirstFsStrategy}; what the strategy refuses goes to {@code retry}. */
    boolean first(List<Workload> candidates, FairSharingConfig.PreemptionStrategy strategy, List<Workload> retry) {
      FairSharingTargets ordering = new FairSharingTargets(tree, cq, candidates, now);
      // queueWithinNominalInResourcesNeedingPreemption, with the incoming workload counted.
      boolean withinNominal = need.stream().noneMatch(fr -> tree.borrowingWith(cq, fr, 0));
      for (String target = ordering.next(); target != null; target = ordering.next()) {
        if (target.equals(cq)) {
          take(ordering.pop(target), IN_CLUSTER_QUEUE);
          if (fits()) {
            return true;
          }
          continue;
        }
        if (withinNominal) {
          take(ordering.pop(target), RECLAMATION);
          if (fits()) {
            return true;
          }
          continue;
        }
        FairSharingTargets.Shares shares = ordering.shares(target);
        if (unsatisfiable(shares)) {
          while (ordering.hasWorkload(target)) {
            retry.add(ordering.pop(target));
          }
          continue;
        }
        while (ordering.hasWorkload(target)) {
          Workload w = ordering.pop(target);
          if (passes(strategy, shares.preemptorNew(), shares.targetOld(), ordering.targetShareWithout(target, w))) {
            take(w, FAIR_SHARING);
            if (fits()) {
              return true;
            }
            break; // the shares changed: the ordering may pick another ClusterQueue
          }
          retry.add(w);
        }
      }
      return false;
    }

    /** {@code runSecondFsStrategy}: rule S2-b, at most one workload from each ClusterQueue. */
    boolean second(List<Workload> retry) {
      FairSharingTargets ordering = new FairSharingTargets(tree, cq, retry, now);
      for (String target = ordering.next(); target != null; target = ordering.next()) {
        FairSharingTargets.Shares shares = ordering.shares(target);
        Workload w = ordering.pop(target);
        if (passes(FairSharingConfig.PreemptionStrategy.LESS_THAN_INITIAL_SHARE, shares.preemptorNew(),
            shares.targetOld(), shares.targetOld())) {
          take(w, FAIR_SHARING);
          if (fits()) {
            return true;
          }
        }
        ordering.drop(target);
      }
      return false;
    }
  }

  /**
   * {@code fsStrategyUnsatisfiable}: a preemptor whose share is infinite (weight 0, borrowing) can
   * pass neither strategy against a target whose share is finite.
   */
  private static boolean unsatisfiable(FairSharingTargets.Shares s) {
    return Double.isInfinite(s.preemptorNew().preciseWeightedShare())
        && !Double.isInfinite(s.targetOld().preciseWeightedShare());
  }
}
