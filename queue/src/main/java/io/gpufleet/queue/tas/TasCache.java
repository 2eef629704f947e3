package io.gpufleet.queue.tas;

import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.queue.api.Admission;
import io.gpufleet.queue.api.KueueState;
import io.gpufleet.queue.api.PodSet;
import io.gpufleet.queue.api.ResourceFlavor;
import io.gpufleet.queue.api.Topology;
import io.gpufleet.queue.api.Workload;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The TAS flavors of one cycle ({@code pkg/cache/scheduler/tas_cache.go}): a
 * {@link TasFlavorSnapshot} for each ResourceFlavor whose {@code spec.topologyName} names an
 * existing Topology, with the usage of every admitted workload's topology assignments charged.
 */
public final class TasCache {

  private TasCache() {}

  public static Map<String, TasFlavorSnapshot> snapshots(KueueState state, List<TopologyNode> nodes) {
    Map<String, TasFlavorSnapshot> out = new TreeMap<>();
    for (ResourceFlavor f : state.flavors()) {
      Optional<Topology> t = f.topologyName().flatMap(state::topology);
      t.ifPresent(topology -> out.put(f.name(), new TasFlavorSnapshot(f, topology, nodes)));
    }
    for (Workload wl : state.workloads()) {
      if (wl.admission().isEmpty()) {
        continue;
      }
      for (Admission.PodSetAssignment psa : wl.admission().get().podSetAssignments()) {
        if (psa.topologyAssignment().isEmpty()) {
          continue;
        }
        Optional<PodSet> ps = wl.podSets().stream().filter(p -> p.name().equals(psa.name())).findFirst();
        Optional<TasFlavorSnapshot> snap = psa.flavors().values().stream().filter(out::containsKey).findFirst()
            .map(out::get);
        if (ps.isPresent() && snap.isPresent()) {
          charge(snap.get(), psa.topologyAssignment().get(), singlePod(ps.get()));
        }
      }
    }
    return out;
  }

  /** A pod set's single-pod requests in Kueue's units. */
  public static SortedMap<ResourceName, Long> singlePod(PodSet ps) {
    return TasFlavorSnapshot.units(ps.requests().quantities());
  }

  /** Adds a placement's usage to its flavor's leaves. */
  public static void charge(TasFlavorSnapshot snap, io.gpufleet.queue.api.TopologyAssignment a,
      SortedMap<ResourceName, Long> singlePod) {
    TasFlavorSnapshot.usage(a, singlePod).forEach(snap::addUsage);
  }
}
