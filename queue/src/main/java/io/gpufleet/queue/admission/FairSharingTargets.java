package io.gpufleet.queue.admission;

import io.gpufleet.queue.api.Workload;
import io.gpufleet.queue.quota.DominantResourceShare;
import io.gpufleet.queue.quota.QuotaTree;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The order in which fair-sharing preemption visits ClusterQueues
 * ({@code pkg/scheduler/preemption/fairsharing/ordering.go} TargetClusterQueueOrdering, with
 * {@code target.go} and {@code least_common_ancestor.go}): from the root cohort down, the child
 * with the highest share among those that borrow and still have candidates, until a ClusterQueue is
 * reached; the same one again while it stays the highest. A ClusterQueue that no longer borrows or
 * has no candidates is pruned, and so is a cohort that no longer borrows (unless it is above the
 * preemptor) or whose children are all pruned. Shares are compared at the children of the least
 * common ancestor of the preemptor and the target ("almost LCAs").
 */
final class FairSharingTargets {

  /** The preemptor's share with the incoming workload, and the target's before any removal. */
  record Shares(DominantResourceShare preemptorNew, DominantResourceShare targetOld) {}

  private final QuotaTree tree;
  private final String preemptor;
  private final Set<String> preemptorAncestors;
  /** Each ClusterQueue's candidates, in candidate order. */
  private final Map<String, Deque<Workload>> candidates = new LinkedHashMap<>();
  private final Set<String> prunedQueues = new HashSet<>();
  private final Set<String> prunedCohorts = new HashSet<>();
  private final Instant now;

  /** Over candidates already sorted by {@code CandidatesOrdering}. */
  FairSharingTargets(QuotaTree tree, String preemptor, List<Workload> sorted, Instant now) {
    this.tree = tree;
    this.preemptor = preemptor;
    this.preemptorAncestors = Set.copyOf(tree.cohortsAbove(preemptor));
    this.now = now;
    for (Workload w : sorted) {
      candidates.computeIfAbsent(ClusterQueuePreemptor.cqOf(w), k -> new ArrayDeque<>()).add(w);
    }
  }

  boolean hasWorkload(String cq) {
    Deque<Workload> d = candidates.get(cq);
    return d != null && !d.isEmpty();
  }

  /** {@code PopWorkload}: the ClusterQueue's next candidate. */
  Workload pop(String cq) {
    return candidates.get(cq).removeFirst();
  }

  /** {@code DropQueue}: no more candidates from this ClusterQueue. */
  void drop(String cq) {
    prunedQueues.add(cq);
  }

  /**
   * {@code Iter}: the next ClusterQueue to take a candidate from, or null when none is left. Without
   * a cohort only the preemptor's own candidates are offered. Call {@link #pop} or {@link #drop}
   * between two calls.
   */
  String next() {
    if (tree.cohortOf(preemptor).isEmpty()) {
      return !prunedQueues.contains(preemptor) && hasWorkload(preemptor) ? preemptor : null;
    }
    String root = tree.rootOf(preemptor);
    while (!prunedCohorts.contains(root)) {
      String target = nextTarget(root);
      if (target != null) {
        return target;
      }
    }
    return null;
  }

  /** {@code nextTarget}: null when this pass only pruned. */
  private String nextTarget(String cohort) {
    String highestCq = null;
    DominantResourceShare highestCqShare = DominantResourceShare.NEGATIVE;
    for (String cq : tree.childClusterQueues(cohort)) {
      if (prunedQueues.contains(cq)) {
        continue;
      }
      DominantResourceShare share = tree.clusterQueueShare(cq);
      int c = DominantResourceShare.compare(share, highestCqShare);
      if (!share.borrowing() && !cq.equals(preemptor) || !hasWorkload(cq)) {
        prunedQueues.add(cq);
      } else if (c == 0) {
        Workload mine = candidates.get(cq).peekFirst();
        Workload current = candidates.get(highestCq).peekFirst();
        if (ClusterQueuePreemptor.candidatesOrdering(preemptor, now).compare(mine, current) < 0) {
          highestCq = cq;
        }
      } else if (c > 0) {
        highestCqShare = share;
        highestCq = cq;
      }
    }
    String highestCohort = null;
    DominantResourceShare highestCohortShare = DominantResourceShare.NEGATIVE;
    for (String child : tree.childCohorts(cohort)) {
      if (prunedCohorts.contains(child)) {
        continue;
      }
      DominantResourceShare share = tree.cohortShare(child);
      // A cohort above the preemptor stays: there may be imbalance within it, or preemption in the preemptor.
      if (!share.borrowing() && !preemptorAncestors.contains(child)) {
        prunedCohorts.add(child);
      } else if (DominantResourceShare.compare(share, highestCohortShare) >= 0) {
        highestCohortShare = share;
        highestCohort = child;
      }
    }
    if (highestCohort == null && highestCq == null) {
      prunedCohorts.add(cohort);
      return null;
    }
    // On a tie the cohort: within it the most unfair node can be chosen.
    if (DominantResourceShare.compare(highestCohortShare, highestCqShare) >= 0) {
      return nextTarget(highestCohort);
    }
    return highestCq;
  }

  /** {@code getLCA}: the first cohort above the target that is above the preemptor too. */
  private String lca(String target) {
    for (String ancestor : tree.cohortsAbove(target)) {
      if (preemptorAncestors.contains(ancestor)) {
        return ancestor;
      }
    }
    throw new IllegalStateException("no common cohort of " + preemptor + " and " + target);
  }

  /** {@code getAlmostLCA}'s share: the node under the LCA on the way up from the ClusterQueue. */
  private DominantResourceShare almostLcaShare(String cq, String lca) {
    String below = null;
    for (String ancestor : tree.cohortsAbove(cq)) {
      if (ancestor.equals(lca)) {
        return below == null ? tree.clusterQueueShare(cq) : tree.cohortShare(below);
      }
      below = ancestor;
    }
    throw new IllegalStateException(lca + " is not above " + cq);
  }

  /** {@code ComputeShares}. */
  Shares shares(String target) {
    String lca = lca(target);
    return new Shares(almostLcaShare(preemptor, lca), almostLcaShare(target, lca));
  }

  /** {@code ComputeTargetShareAfterRemoval}: the target's almost-LCA share with the workload's usage taken out. */
  DominantResourceShare targetShareWithout(String target, Workload w) {
    tree.removeUsage(target, ClusterQueuePreemptor.usage(w));
    try {
      return almostLcaShare(target, lca(target));
    } finally {
      tree.addUsage(target, ClusterQueuePreemptor.usage(w));
    }
  }
}
