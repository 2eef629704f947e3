package io.gpufleet.model.workload;

import io.gpufleet.model.pod.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A PodDisruptionBudget with its {@code status.disruptionsAllowed}: what Karpenter's decisions, its
 * drain and kube-scheduler's DefaultPreemption read of a budget. {@code status.disruptedPods} is not
 * modelled.
 */
public record DisruptionBudget(PodDisruptionBudget pdb, int disruptionsAllowed) {

  /**
   * Each budget with the disruptions it allows as the disruption controller works it out from a
   * cluster's objects ({@link PodDisruptionBudget#disruptionsAllowed}): expected are the pods the
   * workloads whose template it selects want ({@link Workload#desiredPods}), or, with no such
   * workload, the pods it selects; healthy are the pods it selects that pass {@code healthy}.
   */
  public static List<DisruptionBudget> of(List<PodDisruptionBudget> pdbs, List<Workload> workloads, List<Pod> pods,
      Predicate<Pod> healthy) {
    List<DisruptionBudget> out = new ArrayList<>(pdbs.size());
    for (PodDisruptionBudget b : pdbs) {
      int expected = 0;
      boolean owned = false;
      for (Workload w : workloads) {
        if (b.selects(w.meta().namespace(), w.template().labels())) {
          expected += w.desiredPods();
          owned = true;
        }
      }
      int selected = 0;
      int ready = 0;
      for (Pod p : pods) {
        if (b.selects(p.meta().namespace(), p.meta().labels())) {
          selected++;
          ready += healthy.test(p) ? 1 : 0;
        }
      }
      out.add(new DisruptionBudget(b, b.disruptionsAllowed(owned ? expected : selected, ready)));
    }
    return List.copyOf(out);
  }
}
