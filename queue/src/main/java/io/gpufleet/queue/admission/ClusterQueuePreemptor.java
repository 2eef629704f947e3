package io.gpufleet.queue.admission;

import io.gpufleet.queue.api.ClusterQueue;
import io.gpufleet.queue.api.FairSharingConfig;
import io.gpufleet.queue.api.PreemptionPolicy;
import io.gpufleet.queue.api.Workload;
import io.gpufleet.queue.quota.FlavorResource;
import io.gpufleet.queue.quota.QuotaTree;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Kueue's classical preemption ({@code pkg/scheduler/preemption/preemption.go}
 * {@code classicalPreemptions} and {@code fillBackWorkloads}; candidates from
 * {@code classical/hierarchical_preemption.go} and {@code classical/candidate_generator.go}, ordered
 * by {@code common/ordering.go}): workloads of the ClusterQueue its {@code withinClusterQueue} policy
 * allows, and of other ClusterQueues of the cohort tree that borrow what is needed, as its
 * {@code reclaimWithinCohort} policy allows (those in a subtree where the incoming workload fits
 * its quota first, "hierarchical reclaim"); removed one by one until the workload fits, then those
 * not needed put back, last removed first. As the preemption oracle it answers Preempt when a target
 * is in the ClusterQueue, Reclaim when all are elsewhere, NoCandidates when none
 * ({@code preemption_oracle.go}). With fair sharing configured, preemption across the cohort is
 * {@link FairSharingPreemptor}'s instead ({@code getTargets}). Not modelled:
 * {@code borrowWithinCohort.maxPriorityThreshold}, evicted candidates first.
 */
public final class ClusterQueuePreemptor implements PreemptionOracle {

  /** A workload to preempt and why ({@code preemptionVariant.PreemptionReason}). */
  public record Target(Workload workload, String reason) {}

  private enum Variant {
    WITHIN_CQ("InClusterQueue"),
    HIERARCHICAL_RECLAIM("InCohortReclamation"),
    RECLAIM_WITHOUT_BORROWING("InCohortReclamation"),
    RECLAIM_WHILE_BORROWING("InCohortReclaimWhileBorrowing");

    final String reason;

    Variant(String reason) {
      this.reason = reason;
    }
  }

  private record Candidate(Workload wl, String cq, Optional<String> lca, Variant variant) {}

  private final Map<String, ClusterQueue> queues;
  private final List<Workload> admitted;
  private final Instant now;
  private final Optional<FairSharingPreemptor> fairSharing;

  /** Over the ClusterQueues and the admitted workloads of one snapshot; {@code now} for a reservation without a time. */
  public ClusterQueuePreemptor(Map<String, ClusterQueue> queues, List<Workload> admitted, Instant now) {
    this(queues, admitted, now, Optional.empty());
  }

  /** As above, with Kueue's Configuration {@code fairSharing} when it is set ({@code preemption.New}). */
  public ClusterQueuePreemptor(Map<String, ClusterQueue> queues, List<Workload> admitted, Instant now,
      Optional<FairSharingConfig> fairSharing) {
    this.queues = Map.copyOf(queues);
    this.admitted = admitted.stream().filter(w -> w.admission().isPresent()).toList();
    this.now = now;
    this.fairSharing = fairSharing.map(fs -> new FairSharingPreemptor(this.admitted, now, fs));
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

  static String cqOf(Workload w) {
    return w.admission().orElseThrow().clusterQueue();
  }

  static Map<FlavorResource, Long> usage(Workload w) {
    return Scheduler.usage(w.admission().orElseThrow());
  }

  /** {@code classifyPreemptionVariant}; empty for Never. */
  private Optional<Variant> classify(ClusterQueue cq, Workload incoming, Workload wl, Set<FlavorResource> frs,
      boolean hierarchicalAdvantage) {
    if (usage(wl).keySet().stream().noneMatch(frs::contains)) {
      return Optional.empty();
    }
    boolean same = cqOf(wl).equals(cq.name());
    PreemptionPolicy.Policy policy = same ? cq.preemption().withinClusterQueue() : cq.preemption().reclaimWithinCohort();
    if (!satisfies(policy, incoming, wl)) {
      return Optional.empty();
    }
    if (same) {
      return Optional.of(Variant.WITHIN_CQ);
    }
    if (hierarchicalAdvantage) {
      return Optional.of(Variant.HIERARCHICAL_RECLAIM);
    }
    if (borrowForbidden(cq) || wl.priority() >= incoming.priority()) {
      return Optional.of(Variant.RECLAIM_WITHOUT_BORROWING);
    }
    return Optional.of(Variant.RECLAIM_WHILE_BORROWING);
  }

  /** {@code IsBorrowingWithinCohortForbidden}. */
  private static boolean borrowForbidden(ClusterQueue cq) {
    return cq.preemption().borrowWithinCohort() == PreemptionPolicy.Policy.NEVER;
  }

  private List<Candidate> fromClusterQueue(ClusterQueue cq, Workload incoming, String from, Optional<String> lca,
      Set<FlavorResource> frs, boolean advantage) {
    List<Candidate> out = new ArrayList<>();
    for (Workload w : admitted) {
      if (cqOf(w).equals(from) && !w.key().equals(incoming.key())) {
        classify(cq, incoming, w, frs, advantage).ifPresent(v -> out.add(new Candidate(w, from, lca, v)));
      }
    }
    return out;
  }

  /** {@code collectCandidatesInSubtree}: ClusterQueues of the subtree past their nominal quota, skipping one branch. */
  private void collectInSubtree(QuotaTree tree, ClusterQueue cq, Workload incoming, String current, String subtreeRoot,
      String skip, Set<FlavorResource> frs, boolean advantage, List<Candidate> out) {
    for (String child : tree.childCohorts(current)) {
      if (!child.equals(skip) && !tree.cohortWithinNominal(child, frs)) {
        collectInSubtree(tree, cq, incoming, child, subtreeRoot, skip, frs, advantage, out);
      }
    }
    for (String child : tree.childClusterQueues(current)) {
      if (!child.equals(cq.name()) && !tree.clusterQueueWithinNominal(child, frs)) {
        out.addAll(fromClusterQueue(cq, incoming, child, Optional.of(subtreeRoot), frs, advantage));
      }
    }
  }

  /**
   * {@code CandidatesOrdering} of admitted workloads: other ClusterQueues first, lower priority, later
   * reservation ({@code now} when none), then name (upstream: UID).
   */
  static Comparator<Workload> candidatesOrdering(String cq, Instant now) {
    return Comparator.<Workload>comparingInt(w -> cqOf(w).equals(cq) ? 1 : 0)
        .thenComparingInt(Workload::priority)
        .thenComparing((Workload w) -> w.quotaReservedAt().orElse(now), Comparator.reverseOrder())
        .thenComparing(Workload::key);
  }

  private Comparator<Candidate> order(String cq) {
    return Comparator.comparing(c -> c.wl, candidatesOrdering(cq, now));
  }

  /** {@code candidateIsValid}, against the usage as candidates are taken out. */
  private static boolean valid(QuotaTree tree, String cq, Candidate c, boolean borrow, Set<FlavorResource> frs) {
    if (c.cq.equals(cq)) {
      return true;
    }
    if (borrow && c.variant == Variant.RECLAIM_WITHOUT_BORROWING) {
      return false;
    }
    if (tree.clusterQueueWithinNominal(c.cq, frs)) {
      return false;
    }
    for (String node : tree.cohortsAbove(c.cq)) {
      if (c.lca.isPresent() && node.equals(c.lca.get())) {
        break;
      }
      if (tree.cohortWithinNominal(node, frs)) {
        return false;
      }
    }
    return true;
  }

  /** {@code workloadFits}. */
  static boolean fits(QuotaTree tree, String cq, Map<FlavorResource, Long> usage, boolean allowBorrowing) {
    for (var e : usage.entrySet()) {
      if (!allowBorrowing && tree.borrowingWith(cq, e.getKey(), e.getValue())) {
        return false;
      }
      if (e.getValue() > tree.available(cq, e.getKey())) {
        return false;
      }
    }
    return true;
  }

  /**
   * The workloads to preempt so that {@code usage} fits in the ClusterQueue, empty when no set of
   * allowed candidates makes room ({@code GetTargets}).
   */
  public List<Target> targets(QuotaTree tree, String clusterQueue, Workload incoming, Map<FlavorResource, Long> usage,
      Set<FlavorResource> needPreemption) {
    ClusterQueue cq = queues.get(clusterQueue);
    if (cq == null) {
      return List.of();
    }
    if (fairSharing.isPresent()) {
      return fairSharing.get().targets(tree, cq, incoming, usage, needPreemption);
    }
    List<Candidate> same = cq.preemption().withinClusterQueue() == PreemptionPolicy.Policy.NEVER ? List.of()
        : new ArrayList<>(fromClusterQueue(cq, incoming, clusterQueue, Optional.empty(), needPreemption, false));
    List<Candidate> hierarchy = new ArrayList<>();
    List<Candidate> priority = new ArrayList<>();
    List<String> above = tree.cohortsAbove(clusterQueue);
    if (!above.isEmpty() && cq.preemption().reclaimWithinCohort() != PreemptionPolicy.Policy.NEVER) {
      QuotaTree.Fit fit = tree.clusterQueueQuantitiesFit(clusterQueue, usage);
      boolean advantage = fit.fits();
      Map<FlavorResource, Long> remaining = fit.remaining();
      String previous = null;
      for (String root : above) {
        collectInSubtree(tree, cq, incoming, root, root, previous, needPreemption, advantage,
            advantage ? hierarchy : priority);
        QuotaTree.Fit f = tree.cohortQuantitiesFit(root, remaining);
        advantage = advantage || f.fits();
        remaining = f.remaining();
        previous = root;
      }
    }
    Comparator<Candidate> order = order(clusterQueue);
    hierarchy.sort(order);
    priority.sort(order);
    List<Candidate> sameSorted = new ArrayList<>(same);
    sameSorted.sort(order);
    List<Candidate> all = new ArrayList<>(hierarchy);
    all.addAll(priority);
    all.addAll(sameSorted);
    boolean forbidden = borrowForbidden(cq);
    List<Boolean> attempts;
    if (hierarchy.isEmpty() && priority.isEmpty() || forbidden && !underNominal(tree, clusterQueue, needPreemption)) {
      attempts = List.of(true);
    } else if (forbidden && hierarchy.isEmpty()) {
      attempts = List.of(false, true);
    } else {
      attempts = List.of(true, false);
    }
    for (boolean borrow : attempts) {
      List<Candidate> targets = new ArrayList<>();
      try {
        for (Candidate c : all) {
          if (!valid(tree, clusterQueue, c, borrow, needPreemption)) {
            continue;
          }
          tree.removeUsage(c.cq, usage(c.wl));
          targets.add(c);
          if (fits(tree, clusterQueue, usage, borrow)) {
            fillBack(tree, clusterQueue, usage, targets, t -> t.wl, borrow);
            return targets.stream().map(t -> new Target(t.wl, t.variant.reason)).toList();
          }
        }
      } finally {
        for (Candidate t : targets) {
          tree.addUsage(t.cq, usage(t.wl));
        }
      }
    }
    return List.of();
  }

  /**
   * {@code fillBackWorkloads}: with the targets' usage taken out, puts back each one but the last,
   * last first, whose return still lets the workload fit, and drops it from the targets (by moving
   * the last into its place, as upstream's O(1) deletion).
   */
  static <T> void fillBack(QuotaTree tree, String cq, Map<FlavorResource, Long> usage, List<T> targets,
      java.util.function.Function<T, Workload> workload, boolean allowBorrowing) {
    for (int i = targets.size() - 2; i >= 0; i--) {
      Workload w = workload.apply(targets.get(i));
      tree.addUsage(cqOf(w), usage(w));
      if (fits(tree, cq, usage, allowBorrowing)) {
        targets.set(i, targets.get(targets.size() - 1));
        targets.remove(targets.size() - 1);
      } else {
        tree.removeUsage(cqOf(w), usage(w));
      }
    }
  }

  /** {@code queueUnderNominalInResourcesNeedingPreemption}: usage strictly below nominal for each. */
  private static boolean underNominal(QuotaTree tree, String cq, Set<FlavorResource> frs) {
    for (FlavorResource fr : frs) {
      if (tree.quota(cq, fr).nominal() <= tree.usage(cq, fr)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public Simulation simulate(QuotaTree tree, String clusterQueue, Workload workload, FlavorResource fr, long quantity) {
    List<Target> targets = targets(tree, clusterQueue, workload, Map.of(fr, quantity), Set.of(fr));
    if (targets.isEmpty()) {
      return new Simulation(Possibility.NO_CANDIDATES, tree.heightOfLowestSubtreeThatFits(clusterQueue, fr, quantity)
          .height());
    }
    targets.forEach(t -> tree.removeUsage(cqOf(t.workload()), usage(t.workload())));
    int borrow = tree.heightOfLowestSubtreeThatFits(clusterQueue, fr, quantity).height();
    targets.forEach(t -> tree.addUsage(cqOf(t.workload()), usage(t.workload())));
    boolean inQueue = targets.stream().anyMatch(t -> cqOf(t.workload()).equals(clusterQueue));
    return new Simulation(inQueue ? Possibility.PREEMPT : Possibility.RECLAIM, borrow);
  }
}
