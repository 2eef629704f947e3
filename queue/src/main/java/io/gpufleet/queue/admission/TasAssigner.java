package io.gpufleet.queue.admission;

import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.queue.api.ClusterQueue;
import io.gpufleet.queue.api.PodSet;
import io.gpufleet.queue.api.ResourceFlavor;
import io.gpufleet.queue.api.ResourceGroup;
import io.gpufleet.queue.api.TopologyAssignment;
import io.gpufleet.queue.api.Workload;
import io.gpufleet.queue.tas.TasCache;
import io.gpufleet.queue.tas.TasFlavorSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The topology-aware part of Kueue's flavor assignment ({@code pkg/scheduler/flavorassigner/
 * tas_flavorassigner.go} and the TAS step of {@code assignFlavors}): which flavors a pod set may
 * take ({@code checkPodSetAndFlavorMatchForTAS}), and, once every pod set has its flavors, a
 * topology assignment for each pod set that asks for one (explicitly, or implied in a ClusterQueue
 * of TAS flavors only). A Fit whose topology does not fit becomes Preempt with the TAS reason; a
 * Preempt whose topology would not fit even with every TAS workload gone becomes NoFit
 * (TopologyPlacementFailed).
 */
final class TasAssigner {

  /** {@code kueue.WorkloadQuotaReservedReasonTopologyPlacementFailed}. */
  static final String TOPOLOGY_PLACEMENT_FAILED = "TopologyPlacementFailed";

  private final ClusterQueue cq;
  private final Map<String, TasFlavorSnapshot> snapshots;

  TasAssigner(ClusterQueue cq, Map<String, TasFlavorSnapshot> snapshots) {
    this.cq = cq;
    this.snapshots = Map.copyOf(snapshots);
  }

  /** {@code isTASOnly}: every flavor of the ClusterQueue is a TAS flavor. */
  private boolean tasOnly() {
    return cq.resourceGroups().stream().flatMap(g -> g.flavorNames().stream()).allMatch(snapshots::containsKey);
  }

  private boolean explicit(PodSet ps) {
    return ps.topologyRequest().isPresent();
  }

  private boolean implied(PodSet ps) {
    return !explicit(ps) && tasOnly();
  }

  private boolean requested(PodSet ps) {
    return explicit(ps) || implied(ps);
  }

  /** {@code checkPodSetAndFlavorMatchForTAS}: why the flavor does not suit the pod set's TAS needs, if it does not. */
  Optional<String> mismatch(PodSet ps, ResourceFlavor flavor, ResourceGroup rg) {
    if (requested(ps)) {
      if (implied(ps)) {
        return Optional.empty();
      }
      if (flavor.topologyName().isEmpty()) {
        boolean overlap = ps.requests().names().stream().anyMatch(rg.coveredResources()::contains);
        return overlap ? Optional.of("Flavor \"" + flavor.name() + "\" does not support TopologyAwareScheduling")
            : Optional.empty();
      }
      TasFlavorSnapshot s = snapshots.get(flavor.name());
      if (s == null) {
        return Optional.of("Flavor \"" + flavor.name() + "\" information missing in TAS cache");
      }
      if (!s.hasLevel(ps.topologyRequest())) {
        return Optional.of("Flavor \"" + flavor.name() + "\" does not contain the requested level");
      }
      return Optional.empty();
    }
    if (flavor.topologyName().isPresent()) {
      return Optional.of("Flavor \"" + flavor.name() + "\" supports only TopologyAwareScheduling");
    }
    return Optional.empty();
  }

  /** The TAS step for an assignment whose mode is Fit or Preempt. */
  List<PodSetAssignment> place(Workload wl, List<PodSetAssignment> podSets, FlavorAssignmentMode mode) {
    List<PodSetAssignment> out = new ArrayList<>(podSets);
    List<Placing> requests = new ArrayList<>();
    for (int i = 0; i < out.size(); i++) {
      PodSetAssignment psa = out.get(i);
      int idx = i;
      Optional<PodSet> ps = wl.podSets().stream().filter(p -> p.name().equals(psa.name())).findFirst();
      if (ps.isEmpty() || !requested(ps.get()) || psa.error().isPresent() || psa.count() == 0) {
        continue;
      }
      if (snapshots.isEmpty()) {
        out.set(idx, withError(psa, "workload requires Topology, but there is no TAS cache information"));
        continue;
      }
      TreeSet<String> tas = new TreeSet<>();
      psa.flavors().values().stream().map(FlavorAssignment::flavor).filter(snapshots::containsKey).forEach(tas::add);
      if (tas.isEmpty()) {
        out.set(idx, withError(psa, "no TAS flavor assigned"));
      } else if (tas.size() > 1) {
        out.set(idx, withError(psa, "more than one TAS flavor assigned: " + String.join(", ", tas)));
      } else {
        requests.add(new Placing(idx, ps.get(), tas.first()));
      }
    }
    if (requests.isEmpty() || out.stream().anyMatch(p -> p.error().isPresent())) {
      return out;
    }
    if (mode == FlavorAssignmentMode.FIT) {
      Optional<Failure> f = findAll(requests, out, false);
      if (f.isEmpty()) {
        return out;
      }
      out.set(f.get().index, blocked(out.get(f.get().index), f.get().reason));
    }
    // Preempt: would the topology fit with every TAS workload gone?
    Optional<Failure> f = findAll(requests, out, true);
    if (f.isPresent()) {
      out.set(f.get().index, noFit(out.get(f.get().index), f.get().flavor));
      return out;
    }
    for (Placing r : requests) { // updateModeForTASRequests(Preempt)
      PodSetAssignment psa = out.get(r.index);
      out.set(r.index, new PodSetAssignment(psa.name(), withMode(psa, FlavorAssignmentMode.PREEMPT), psa.reasons(),
          psa.error(), psa.count(), psa.requests(), psa.attempts(), Optional.empty(), psa.topologyBlocked()));
    }
    return out;
  }

  /** A pod set to place ({@code TASPodSetRequests}): its place in the assignment, its spec and its TAS flavor. */
  private record Placing(int index, PodSet ps, String flavor) {}

  private record Failure(int index, String flavor, String reason) {}

  /**
   * {@code FindTopologyAssignmentsForWorkload}: each pod set in turn, the earlier ones' placements
   * assumed; the first failure, or (not simulating) every pod set's assignment set in {@code out}.
   */
  private Optional<Failure> findAll(List<Placing> placing, List<PodSetAssignment> out, boolean simulateEmpty) {
    Map<String, Map<String, SortedMap<ResourceName, Long>>> assumed = new HashMap<>();
    List<TopologyAssignment> found = new ArrayList<>();
    for (Placing r : placing) {
      TasFlavorSnapshot snap = snapshots.get(r.flavor);
      Map<String, SortedMap<ResourceName, Long>> mine = assumed.computeIfAbsent(r.flavor, k -> new TreeMap<>());
      SortedMap<ResourceName, Long> single = TasCache.singlePod(r.ps);
      TasFlavorSnapshot.Outcome o = snap.assign(r.ps.topologyRequest(), implied(r.ps), out.get(r.index).count(),
          single, r.ps.template(), mine, simulateEmpty);
      if (!o.placed()) {
        return Optional.of(new Failure(r.index, r.flavor, o.failure()));
      }
      TopologyAssignment a = o.assignment().orElseThrow();
      found.add(a);
      TasFlavorSnapshot.usage(a, single).forEach((d, u) -> {
        SortedMap<ResourceName, Long> acc = mine.computeIfAbsent(d, k -> new TreeMap<>());
        u.forEach((res, v) -> acc.merge(res, v, Long::sum));
      });
    }
    if (!simulateEmpty) {
      for (int i = 0; i < placing.size(); i++) {
        PodSetAssignment psa = out.get(placing.get(i).index);
        out.set(placing.get(i).index, new PodSetAssignment(psa.name(), psa.flavors(), psa.reasons(), psa.error(),
            psa.count(), psa.requests(), psa.attempts(), Optional.of(found.get(i)), false));
      }
    }
    return Optional.empty();
  }

  private static PodSetAssignment withError(PodSetAssignment psa, String error) {
    return new PodSetAssignment(psa.name(), psa.flavors(), psa.reasons(), Optional.of(error), psa.count(),
        psa.requests(), psa.attempts());
  }

  /** Fit but the topology does not: the reason added, every flavor Preempt ({@code updateMode}). */
  private static PodSetAssignment blocked(PodSetAssignment psa, String reason) {
    List<String> reasons = new ArrayList<>(psa.reasons());
    reasons.add(reason);
    return new PodSetAssignment(psa.name(), withMode(psa, FlavorAssignmentMode.PREEMPT), reasons, psa.error(),
        psa.count(), psa.requests(), psa.attempts(), Optional.empty(), true);
  }

  /** Not even with every TAS workload gone: every flavor NoFit, the TAS flavor's attempt TopologyPlacementFailed. */
  private static PodSetAssignment noFit(PodSetAssignment psa, String flavor) {
    List<FlavorAttempt> attempts = psa.attempts().stream().map(a -> a.flavor().equals(flavor)
        ? new FlavorAttempt(a.flavor(), FlavorAssignmentMode.NO_FIT, a.borrow(), a.reasons(), TOPOLOGY_PLACEMENT_FAILED)
        : a).toList();
    return new PodSetAssignment(psa.name(), withMode(psa, FlavorAssignmentMode.NO_FIT), psa.reasons(), psa.error(),
        psa.count(), psa.requests(), attempts, Optional.empty(), psa.topologyBlocked());
  }

  private static SortedMap<ResourceName, FlavorAssignment> withMode(PodSetAssignment psa, FlavorAssignmentMode m) {
    SortedMap<ResourceName, FlavorAssignment> out = new TreeMap<>();
    psa.flavors().forEach((r, f) -> out.put(r, new FlavorAssignment(f.flavor(), m, f.borrow())));
    return out;
  }
}
