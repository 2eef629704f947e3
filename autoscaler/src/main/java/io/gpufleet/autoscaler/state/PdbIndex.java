package io.gpufleet.autoscaler.state;

import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.PodDisruptionBudget;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * PodDisruptionBudgets with how many more disruptions each allows now (its status), so Karpenter's
 * decisions can ask whether a pod may be evicted (reference §1.5 candidate filter).
 */
public record PdbIndex(List<Entry> entries) {

  public static final PdbIndex NONE = new PdbIndex(List.of());

  /** A budget and its {@code status.disruptionsAllowed}. */
  public record Entry(PodDisruptionBudget pdb, int disruptionsAllowed) {}

  public PdbIndex {
    entries = List.copyOf(entries);
  }

  public List<Entry> covering(Pod pod) {
    List<Entry> out = List.of();
    for (Entry e : entries) {
      PodDisruptionBudget b = e.pdb();
      if (b.meta().namespace().equals(pod.meta().namespace()) && !b.selector().isEmpty()
          && b.selector().matches(pod.meta().labels())) {
        if (out.isEmpty()) {
          out = new ArrayList<>(1);
        }
        out.add(e);
      }
    }
    return out;
  }

  /** Why the Eviction API would refuse this pod now, if it would. */
  public Optional<String> evictionBlocked(Pod pod) {
    List<Entry> pdbs = covering(pod);
    if (pdbs.size() > 1) {
      return Optional.of("eviction does not support multiple PDBs");
    }
    if (pdbs.size() == 1 && pdbs.getFirst().disruptionsAllowed() <= 0) {
      return Optional.of("pdb " + pdbs.getFirst().pdb().meta().key() + " prevents pod evictions");
    }
    return Optional.empty();
  }
}
