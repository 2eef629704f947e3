package io.gpufleet.autoscaler.state;

import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.DisruptionBudget;
import io.gpufleet.model.workload.IntOrPercent;
import io.gpufleet.model.workload.PodDisruptionBudget;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * PodDisruptionBudgets with how many more disruptions each allows now (its status), so Karpenter's
 * decisions can ask whether a pod may be evicted (reference §1.5 candidate filter).
 */
public record PdbIndex(List<DisruptionBudget> entries, Map<Object, List<DisruptionBudget>> memo) {

  public static final PdbIndex NONE = new PdbIndex(List.of());

  public PdbIndex {
    entries = List.copyOf(entries);
  }

  /**
   * An index over these budgets. Pods of one workload share their labels, so the budgets covering
   * them are worked out once per namespace and label set.
   */
  public PdbIndex(List<DisruptionBudget> entries) {
    this(entries, new HashMap<>());
  }

  public List<DisruptionBudget> covering(Pod pod) {
    if (entries.isEmpty()) {
      return List.of();
    }
    Object key = List.of(pod.meta().namespace(), pod.meta().labels());
    List<DisruptionBudget> cached = memo.get(key);
    if (cached == null) {
      cached = scan(pod);
      memo.put(key, cached);
    }
    return cached;
  }

  private List<DisruptionBudget> scan(Pod pod) {
    List<DisruptionBudget> out = List.of();
    for (DisruptionBudget e : entries) {
      PodDisruptionBudget b = e.pdb();
      if (b.selects(pod.meta().namespace(), pod.meta().labels())) {
        if (out.isEmpty()) {
          out = new ArrayList<>(1);
        }
        out.add(e);
      }
    }
    return out;
  }

  /**
   * Why the Eviction API would refuse this pod now, if it would, in Karpenter's words
   * ({@code K:pkg/controllers/state/statenode.go} ValidatePodsDisruptable: {@code pdb prevents pod
   * evictions} wrapped with {@code PodDisruptionBudget=<namespace/name>}).
   */
  public Optional<String> evictionBlocked(Pod pod) {
    return evictionBlocked(covering(pod));
  }

  /** As {@link #evictionBlocked(Pod)}, for a pod these budgets cover. */
  public static Optional<String> evictionBlocked(List<DisruptionBudget> pdbs) {
    if (pdbs.size() > 1) {
      return Optional.of("eviction does not support multiple PDBs (PodDisruptionBudget(s)="
          + String.join(", ", pdbs.stream().map(e -> e.pdb().meta().key()).toList()) + ")");
    }
    if (pdbs.size() == 1 && pdbs.getFirst().disruptionsAllowed() <= 0) {
      return Optional.of("pdb prevents pod evictions (PodDisruptionBudget=" + pdbs.getFirst().pdb().meta().key() + ")");
    }
    return Optional.empty();
  }

  /**
   * Why this pod cannot be evicted for as long as its budgets stay as written, if so: it is covered by
   * more than one budget, or by one that is fully blocking by its spec ({@code maxUnavailable} 0 or
   * "0%", or {@code minAvailable} "100%"), whatever its status allows now
   * ({@code K:pkg/utils/pdb/pdb.go} isFullyBlocked and newPdb's isFullyBlocking). The twin does not
   * model {@code unhealthyPodEvictionPolicy}, so no budget lets an unready pod go early.
   */
  public Optional<String> fullyBlocked(Pod pod) {
    List<DisruptionBudget> pdbs = covering(pod);
    if (pdbs.size() > 1) {
      return Optional.of("eviction does not support multiple PDBs");
    }
    if (pdbs.size() == 1 && isFullyBlocking(pdbs.getFirst().pdb())) {
      return Optional.of("pdb " + pdbs.getFirst().pdb().meta().key() + " is fully blocking");
    }
    return Optional.empty();
  }

  private static boolean isFullyBlocking(PodDisruptionBudget b) {
    boolean maxZero = b.maxUnavailable().map(m -> switch (m) {
      case IntOrPercent.Count c -> c.value() == 0;
      case IntOrPercent.Percent p -> p.percent() == 0;
    }).orElse(false);
    boolean minAll = b.minAvailable().map(m -> switch (m) {
      case IntOrPercent.Count c -> false; // a count is never fully blocking upstream, whatever the replicas
      case IntOrPercent.Percent p -> p.percent() == 100;
    }).orElse(false);
    return maxZero || minAll;
  }
}
