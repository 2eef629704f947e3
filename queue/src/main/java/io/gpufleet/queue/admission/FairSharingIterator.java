package io.gpufleet.queue.admission;

import io.gpufleet.queue.api.Workload;
import io.gpufleet.queue.quota.DominantResourceShare;
import io.gpufleet.queue.quota.FlavorResource;
import io.gpufleet.queue.quota.QuotaTree;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The order of a cycle's heads with fair sharing ({@code pkg/scheduler/fair_sharing_iterator.go}):
 * a ClusterQueue without a cohort gives its head as it comes; within a cohort tree a tournament
 * picks the next one, each cohort nominating the best of its children's candidates, compared by
 * the child's share with that candidate admitted. Shares are computed when the next head is asked
 * for, so they see what this cycle has admitted so far. The comparison ({@code entryComparer.less}):
 * a child that does not borrow on the flavors its candidate asks for first (feature gate
 * FairSharingPrioritizeNonBorrowing, on by default), then the lower share, the higher priority
 * (PrioritySortingWithinCohort, on by default), the earlier creation; on a full tie the earlier
 * candidate stays. PrioritizePreemptorWorkloads (alpha, off by default) is not modelled.
 */
final class FairSharingIterator<E extends FairSharingIterator.Head> implements Iterator<E> {

  /** What the tournament needs of an entry. */
  interface Head {
    String clusterQueue();

    Workload workload();

    Map<FlavorResource, Long> usage();
  }

  private final QuotaTree tree;
  private final Map<String, E> byQueue = new LinkedHashMap<>();
  /** DRS per (parent cohort, workload), as {@code computeDRS} fills it for one root. */
  private final Map<String, DominantResourceShare> shares = new HashMap<>();

  FairSharingIterator(QuotaTree tree, List<E> entries) {
    this.tree = tree;
    for (E e : entries) {
      byQueue.put(e.clusterQueue(), e);
    }
  }

  @Override
  public boolean hasNext() {
    return !byQueue.isEmpty();
  }

  @Override
  public E next() {
    if (byQueue.isEmpty()) {
      throw new NoSuchElementException();
    }
    String cq = byQueue.keySet().iterator().next();
    if (tree.cohortOf(cq).isEmpty()) {
      return byQueue.remove(cq);
    }
    String root = tree.rootOf(cq);
    computeShares(root);
    E winner = tournament(root);
    byQueue.remove(winner.clusterQueue());
    return winner;
  }

  private static String key(String cohort, Workload w) {
    return cohort + "\u0000" + w.key();
  }

  /**
   * {@code computeDRS}: for each ClusterQueue of the tree with a head, its share with the head's usage
   * added, recorded against its parent, then each cohort's share on the way to the root against its
   * own parent.
   */
  private void computeShares(String root) {
    shares.clear();
    for (String cq : tree.subtreeClusterQueues(root)) {
      E e = byQueue.get(cq);
      if (e == null) {
        continue;
      }
      Head h = e;
      tree.addUsage(cq, h.usage());
      try {
        DominantResourceShare share = tree.clusterQueueShare(cq);
        for (String ancestor : tree.cohortsAbove(cq)) {
          shares.put(key(ancestor, h.workload()), share);
          share = tree.cohortShare(ancestor);
        }
      } finally {
        tree.removeUsage(cq, h.usage());
      }
    }
  }

  /** {@code runTournament}: the child cohorts' winners, then the child ClusterQueues' heads. */
  private E tournament(String cohort) {
    List<E> candidates = new ArrayList<>();
    for (String child : tree.childCohorts(cohort)) {
      E winner = tournament(child);
      if (winner != null) {
        candidates.add(winner);
      }
    }
    for (String cq : tree.childClusterQueues(cohort)) {
      E e = byQueue.get(cq);
      if (e != null) {
        candidates.add(e);
      }
    }
    if (candidates.isEmpty()) {
      return null;
    }
    E best = candidates.getFirst();
    for (E current : candidates.subList(1, candidates.size())) {
      if (less(current, best, cohort)) {
        best = current;
      }
    }
    return best;
  }

  /** {@code entryComparer.less}. */
  private boolean less(Head a, Head b, String cohort) {
    DominantResourceShare aShare = shares.get(key(cohort, a.workload()));
    DominantResourceShare bShare = shares.get(key(cohort, b.workload()));
    boolean aBorrowing = aShare.isBorrowingOn(a.usage());
    boolean bBorrowing = bShare.isBorrowingOn(b.usage());
    if (aBorrowing != bBorrowing) {
      return !aBorrowing;
    }
    int c = DominantResourceShare.compare(aShare, bShare);
    if (c != 0) {
      return c < 0;
    }
    if (a.workload().priority() != b.workload().priority()) {
      return a.workload().priority() > b.workload().priority();
    }
    return a.workload().creationTime().isBefore(b.workload().creationTime());
  }
}
