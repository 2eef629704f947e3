package io.gpufleet.queue.admission;

import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.queue.api.Admission;
import io.gpufleet.queue.api.KueueState;
import io.gpufleet.queue.api.ClusterQueue;
import io.gpufleet.queue.api.FairSharingConfig;
import io.gpufleet.queue.api.PodSet;
import io.gpufleet.queue.api.PreemptionPolicy;
import io.gpufleet.queue.api.QueueingStrategy;
import io.gpufleet.queue.api.ResourceFlavor;
import io.gpufleet.queue.api.Workload;
import io.gpufleet.queue.api.WorkloadCondition;
import io.gpufleet.queue.quota.Amounts;
import io.gpufleet.queue.quota.FlavorResource;
import io.gpufleet.queue.quota.QuotaTree;
import io.gpufleet.queue.tas.TasCache;
import io.gpufleet.queue.tas.TasFlavorSnapshot;
import io.gpufleet.queue.tas.TopologyNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * One scheduling cycle of Kueue's scheduler ({@code pkg/scheduler/scheduler.go} {@code schedule}):
 * the head of each active ClusterQueue (highest priority, then oldest), nominated (namespace
 * selector, flavor assignment), ordered by the classical iterator (borrowing height, then priority,
 * then creation time) and admitted while the quota snapshot still has room; a workload that needs
 * preemption names its targets ({@link ClusterQueuePreemptor}). With Kueue's Configuration
 * {@code fairSharing} set, the heads are ordered by {@link FairSharingIterator} instead, and preemption
 * across a cohort is {@link FairSharingPreemptor}'s. With nodes given, TAS flavors place pod sets on
 * topology domains ({@link TasAssigner}) and an admission charges its domains for the next workloads
 * of the cycle. Not modelled: admission checks, second passes, waitForPodsReady, partial admission,
 * admission fair sharing, preemption to free room in a topology.
 */
public final class Scheduler {

  /** {@code workload.ErrNamespaceMismatch}'s message. */
  static final String NAMESPACE_MISMATCH = "workload namespace doesn't match ClusterQueue selector";
  /** {@code processEntry} when the snapshot no longer has room. */
  static final String NO_LONGER_FITS = "Workload no longer fits after processing another workload";

  private Scheduler() {}

  /** Queue order within a ClusterQueue: higher priority first, then earlier creation ({@code queueOrderingFunc}). */
  static final Comparator<Workload> QUEUE_ORDER = Comparator.comparingInt(Workload::priority).reversed()
      .thenComparing(Workload::creationTime).thenComparing(Workload::key);

  /** The quota tree with every admitted workload's usage charged. */
  public static QuotaTree snapshot(KueueState state) {
    QuotaTree tree = QuotaTree.of(state.clusterQueues(), state.cohorts());
    for (Workload wl : state.workloads()) {
      wl.admission().filter(a -> tree.hasClusterQueue(a.clusterQueue()))
          .ifPresent(a -> tree.addUsage(a.clusterQueue(), usage(a)));
    }
    return tree;
  }

  static Map<FlavorResource, Long> usage(Admission a) {
    Map<FlavorResource, Long> out = new TreeMap<>();
    for (Admission.PodSetAssignment ps : a.podSetAssignments()) {
      ps.flavors().forEach((r, f) -> out.merge(new FlavorResource(f, r), ps.resourceUsage().getOrDefault(r, 0L),
          Long::sum));
    }
    return out;
  }

  record Entry(Workload wl, ClusterQueue cq, Assignment assignment, List<ClusterQueuePreemptor.Target> targets)
      implements FairSharingIterator.Head {

    @Override
    public String clusterQueue() {
      return cq.name();
    }

    @Override
    public Workload workload() {
      return wl;
    }

    @Override
    public Map<FlavorResource, Long> usage() {
      return assignment.usage();
    }
  }

  /** {@code scheduler.go} markPreemptionOutcome. */
  static final String OVERLAPPING = "Workload has overlapping preemption targets with another workload";

  /** One cycle with the heads of every ClusterQueue, none set aside. */
  public static List<Decision> cycle(KueueState state, Instant now) {
    return cycle(state, now, wl -> false);
  }

  /**
   * One cycle. {@code setAside} names pending workloads a BestEffortFIFO queue has moved to its
   * inadmissible list, so the next one is its head; StrictFIFO queues ignore it.
   */
  public static List<Decision> cycle(KueueState state, Instant now, Predicate<Workload> setAside) {
    return cycle(state, now, setAside, List.of());
  }

  /** One cycle with {@code nodes} as TAS's view of the cluster. */
  public static List<Decision> cycle(KueueState state, Instant now, Predicate<Workload> setAside,
      List<TopologyNode> nodes) {
    Map<String, TasFlavorSnapshot> tasFlavors = TasCache.snapshots(state, nodes);
    List<Decision> out = new ArrayList<>();
    QuotaTree tree = snapshot(state);
    Map<String, ClusterQueue> byName = new LinkedHashMap<>();
    state.clusterQueues().forEach(q -> byName.put(q.name(), q));
    Optional<FairSharingConfig> fairSharing = state.configuration().fairSharing();
    ClusterQueuePreemptor preemptor = new ClusterQueuePreemptor(byName, state.workloads(), now, fairSharing);
    Map<String, ResourceFlavor> flavors = new LinkedHashMap<>();
    state.flavors().forEach(f -> flavors.put(f.name(), f));
    Map<String, List<Workload>> queued = new TreeMap<>();
    for (Workload wl : state.workloads()) {
      if (wl.admission().isPresent()) {
        continue;
      }
      Optional<String> cqName = state.clusterQueueOf(wl);
      if (cqName.isEmpty()) {
        out.add(new Decision.NotConsidered(wl.key(), Optional.empty(),
            "LocalQueue " + wl.namespace() + "/" + wl.queueName() + " doesn't exist"));
        continue;
      }
      Optional<ClusterQueue> cq = state.clusterQueue(cqName.get());
      if (cq.isEmpty()) {
        out.add(new Decision.NotConsidered(wl.key(), Optional.empty(),
            "ClusterQueue " + cqName.get() + " doesn't exist"));
        continue;
      }
      List<String> missing = state.missingFlavors(cq.get());
      List<String> inactive = new ArrayList<>();
      if (!missing.isEmpty()) {
        inactive.add("references missing ResourceFlavor(s): " + String.join(",", missing));
      }
      inactive.addAll(state.missingTopologies(cq.get()));
      if (!inactive.isEmpty()) {
        // clusterqueue.go inactiveReason: an inactive ClusterQueue gives no heads.
        out.add(new Decision.NotConsidered(wl.key(), Optional.of(cq.get().name()),
            "Can't admit new workloads: " + String.join(", ", inactive) + "."));
        continue;
      }
      queued.computeIfAbsent(cq.get().name(), k -> new ArrayList<>()).add(wl);
    }
    List<Entry> entries = new ArrayList<>();
    for (var e : queued.entrySet()) {
      ClusterQueue cq = state.clusterQueue(e.getKey()).orElseThrow();
      List<Workload> order = e.getValue().stream().sorted(QUEUE_ORDER).toList();
      Optional<Workload> head = order.stream()
          .filter(w -> cq.queueingStrategy() == QueueingStrategy.STRICT_FIFO || !setAside.test(w)).findFirst();
      if (head.isEmpty()) {
        continue;
      }
      Workload wl = head.get();
      if (cq.namespaceSelector().isEmpty() || !cq.namespaceSelector().get().matches(wl.namespaceLabels())) {
        out.add(pending(wl, cq, "Misconfigured", NAMESPACE_MISMATCH, true, now));
        continue;
      }
      Assignment a = new FlavorAssigner(cq, tree, flavors, preemptor, fairSharing.isPresent(), tasFlavors).assign(wl);
      boolean topologyBlocked = a.podSets().stream().anyMatch(PodSetAssignment::topologyBlocked);
      List<ClusterQueuePreemptor.Target> targets = a.representativeMode() == FlavorAssignmentMode.PREEMPT
          && !topologyBlocked ? preemptor.targets(tree, cq.name(), wl, a.usage(), needPreemption(a)) : List.of();
      entries.add(new Entry(wl, cq, a, targets));
    }
    Iterator<Entry> order;
    if (fairSharing.isPresent()) {
      order = new FairSharingIterator<>(tree, entries);
    } else {
      // classicalIterator: under nominal quota first, then higher priority, then FIFO.
      entries.sort(Comparator.<Entry>comparingInt(en -> en.assignment.borrowing())
          .thenComparing(en -> -en.wl.priority()).thenComparing(en -> en.wl.creationTime())
          .thenComparing(en -> en.wl.key()));
      order = entries.iterator();
    }
    List<Workload> preempted = new ArrayList<>();
    while (order.hasNext()) {
      Entry en = order.next();
      boolean bestEffort = en.cq.queueingStrategy() == QueueingStrategy.BEST_EFFORT_FIFO;
      String cq = en.cq.name();
      switch (en.assignment.representativeMode()) {
        case NO_FIT -> out.add(pending(en.wl, en.cq, en.assignment.noFitReason(), en.assignment.message(), bestEffort,
            now));
        case PREEMPT -> {
          if (en.targets.isEmpty()) {
            out.add(pending(en.wl, en.cq, "WaitingForQuota", en.assignment.message(), bestEffort, now));
            // reserveCapacityForUnreclaimablePreempt: unless it can always reclaim, hold the quota it waits for.
            if (en.cq.preemption().reclaimWithinCohort() != PreemptionPolicy.Policy.ANY) {
              tree.addUsage(cq, toReserve(tree, en));
            }
          } else if (en.targets.stream().anyMatch(t -> preempted.contains(t.workload()))) {
            out.add(pending(en.wl, en.cq, "WaitingForQuota", OVERLAPPING, false, now));
          } else {
            Map<FlavorResource, Long> usage = toReserve(tree, en);
            List<Workload> victims = en.targets.stream().map(ClusterQueuePreemptor.Target::workload).toList();
            if (!fitsWithout(tree, cq, usage, preempted, victims)) {
              out.add(pending(en.wl, en.cq, "WaitingForQuota", NO_LONGER_FITS, false, now));
            } else {
              preempted.addAll(victims);
              tree.addUsage(cq, usage);
              String message = en.assignment.message() + ". Pending the preemption of " + en.targets.size()
                  + " workload(s)";
              List<Decision.Eviction> evictions = en.targets.stream().map(t -> new Decision.Eviction(
                  t.workload().key(), t.reason(), preemptionMessage(t, tree.path(cq),
                      tree.path(t.workload().admission().orElseThrow().clusterQueue())))).toList();
              out.add(new Decision.Preempting(en.wl.key(), cq, evictions, message,
                  List.of(WorkloadCondition.pending("WaitingForPreemptedWorkloads", message, now),
                      WorkloadCondition.noReservation(now))));
            }
          }
        }
        case FIT -> {
          if (!fitsWithout(tree, cq, en.assignment.usage(), preempted, List.of())
              || !topologyFits(tasFlavors, en.wl, en.assignment)) {
            out.add(pending(en.wl, en.cq, "WaitingForQuota", NO_LONGER_FITS, false, now));
          } else {
            tree.addUsage(cq, en.assignment.usage());
            chargeTopology(tasFlavors, en.wl, en.assignment);
            out.add(new Decision.Admitted(en.wl.key(), admission(cq, en.assignment), en.assignment.borrowing(),
                List.of(WorkloadCondition.quotaReserved(cq, now), WorkloadCondition.admitted(now))));
          }
        }
      }
    }
    return out;
  }

  /** {@code fits}' TAS half: each placed pod set's domains still have room after this cycle's admissions. */
  private static boolean topologyFits(Map<String, TasFlavorSnapshot> tas, Workload wl, Assignment a) {
    for (PodSetAssignment ps : a.podSets()) {
      if (ps.topology().isPresent()) {
        Optional<TasFlavorSnapshot> snap = tasFlavorOf(tas, ps);
        PodSet spec = wl.podSets().stream().filter(p -> p.name().equals(ps.name())).findFirst().orElseThrow();
        if (snap.isPresent() && !snap.get().fits(ps.topology().get(), TasCache.singlePod(spec))) {
          return false;
        }
      }
    }
    return true;
  }

  /** Charges an admitted workload's topology assignments to their flavors' leaves. */
  private static void chargeTopology(Map<String, TasFlavorSnapshot> tas, Workload wl, Assignment a) {
    for (PodSetAssignment ps : a.podSets()) {
      if (ps.topology().isPresent()) {
        PodSet spec = wl.podSets().stream().filter(p -> p.name().equals(ps.name())).findFirst().orElseThrow();
        tasFlavorOf(tas, ps).ifPresent(s -> TasCache.charge(s, ps.topology().get(), TasCache.singlePod(spec)));
      }
    }
  }

  private static Optional<TasFlavorSnapshot> tasFlavorOf(Map<String, TasFlavorSnapshot> tas, PodSetAssignment ps) {
    return ps.flavors().values().stream().map(FlavorAssignment::flavor).filter(tas::containsKey).findFirst()
        .map(tas::get);
  }

  /** {@code preemptionMessage} with {@code HumanReadablePreemptionReasons}; no UIDs in the twin, so UNKNOWN. */
  static String preemptionMessage(ClusterQueuePreemptor.Target t, String preemptorPath, String preempteePath) {
    String why = switch (t.reason()) {
      case "InClusterQueue" -> "prioritization in the ClusterQueue";
      case "InCohortReclamation" -> "reclamation within the cohort";
      case "InCohortReclaimWhileBorrowing" -> "reclamation within the cohort while borrowing";
      case FairSharingPreemptor.FAIR_SHARING -> "Fair Sharing within the cohort";
      default -> "UNKNOWN";
    };
    return "Preempted to accommodate a workload (UID: UNKNOWN, JobUID: UNKNOWN) due to " + why + "; preemptor path: "
        + preemptorPath + "; preemptee path: " + preempteePath;
  }

  /** {@code flavorResourcesNeedPreemption}. */
  static Set<FlavorResource> needPreemption(Assignment a) {
    Set<FlavorResource> out = new TreeSet<>();
    for (PodSetAssignment ps : a.podSets()) {
      ps.flavors().forEach((r, f) -> {
        if (f.mode() == FlavorAssignmentMode.PREEMPT) {
          out.add(new FlavorResource(f.flavor(), r));
        }
      });
    }
    return out;
  }

  /**
   * {@code fits}: whether the usage fits with the usage of the workloads being preempted in this cycle
   * and of this entry's targets taken out, as they will be.
   */
  private static boolean fitsWithout(QuotaTree tree, String cq, Map<FlavorResource, Long> usage, List<Workload> preempted,
      List<Workload> targets) {
    List<Workload> gone = new ArrayList<>(preempted);
    targets.stream().filter(t -> !gone.contains(t)).forEach(gone::add);
    gone.forEach(w -> tree.removeUsage(w.admission().orElseThrow().clusterQueue(), usage(w.admission().get())));
    try {
      return tree.fits(cq, usage);
    } finally {
      gone.forEach(w -> tree.addUsage(w.admission().orElseThrow().clusterQueue(), usage(w.admission().get())));
    }
  }

  /**
   * {@code quotaResourcesToReserve} for a workload waiting on preemption: what it may hold now, its
   * nominal quota (plus the borrowing limit when it borrows) less what the ClusterQueue uses.
   */
  private static Map<FlavorResource, Long> toReserve(QuotaTree tree, Entry en) {
    Map<FlavorResource, Long> out = new TreeMap<>();
    en.assignment.usage().forEach((fr, v) -> {
      var q = tree.quota(en.cq.name(), fr);
      long used = tree.usage(en.cq.name(), fr);
      if (en.assignment.borrowing() > 0) {
        out.put(fr, q.borrowingLimit().isEmpty() ? v
            : Math.min(v, Amounts.sub(Amounts.add(q.nominal(), q.borrowingLimit().getAsLong()), used)));
      } else {
        out.put(fr, Math.max(0, Math.min(v, q.nominal() - used)));
      }
    });
    return out;
  }

  private static Decision.Pending pending(Workload wl, ClusterQueue cq, String reason, String message,
      boolean inadmissible, Instant now) {
    return new Decision.Pending(wl.key(), cq.name(), reason, message, inadmissible,
        List.of(WorkloadCondition.pending(reason, message, now), WorkloadCondition.noReservation(now)));
  }

  /** {@code Assignment.ToAPI}: per pod set its flavors and the usage charged. */
  static Admission admission(String cq, Assignment a) {
    List<Admission.PodSetAssignment> out = new ArrayList<>();
    for (PodSetAssignment ps : a.podSets()) {
      SortedMap<ResourceName, String> flavors = new TreeMap<>();
      SortedMap<ResourceName, Long> usage = new TreeMap<>();
      ps.flavors().forEach((r, f) -> {
        flavors.put(r, f.flavor());
        usage.put(r, ps.requests().getOrDefault(r, 0L));
      });
      out.add(new Admission.PodSetAssignment(ps.name(), flavors, usage, ps.count(), ps.topology()));
    }
    return new Admission(cq, out);
  }

  /** The total requests of a pod set in Kueue's units, as the flavor assigner charges them. */
  public static SortedMap<ResourceName, Long> totalRequests(PodSet ps) {
    return FlavorAssigner.totalRequests(ps, false);
  }

}
