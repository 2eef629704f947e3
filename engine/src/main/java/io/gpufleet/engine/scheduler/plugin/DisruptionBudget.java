package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.PodDisruptionBudget;
import io.gpufleet.model.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A PodDisruptionBudget with its {@code status.disruptionsAllowed}, as DefaultPreemption reads it
 * through its PDB lister. {@code status.disruptedPods} is not modelled.
 */
public record DisruptionBudget(PodDisruptionBudget pdb, int disruptionsAllowed) {

  /** Where DefaultPreemption reads the budgets, once per preemption that finds possible victims. */
  @FunctionalInterface
  public interface Lister {
    /** No budgets: what a profile without a PDB lister reads. */
    Lister NONE = List::of;

    List<DisruptionBudget> list();
  }

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

  /** The potential victims, split in order ({@code filterPodsWithPDBViolation}). */
  record Split(List<PodInfo> violating, List<PodInfo> nonViolating) {}

  /**
   * {@code filterPodsWithPDBViolation} (pkg/scheduler/framework/plugins/defaultpreemption): a pod
   * whose matching budget has no disruption left violates it; otherwise each matching budget's
   * allowance is decremented. Stable: the order of {@code pods} is kept in each group. Budgets match
   * as policy/v1 reads the selector ({@link PodDisruptionBudget#selects}: a null selector matches
   * no pod, an empty one every pod of the namespace, kubernetes/kubernetes#141785). Upstream skips
   * a pod listed in the budget's {@code status.disruptedPods}; the twin does not model that list.
   */
  static Split split(List<PodInfo> pods, List<DisruptionBudget> budgets) {
    if (budgets.isEmpty()) {
      return new Split(List.of(), pods);
    }
    int[] allowed = new int[budgets.size()];
    for (int i = 0; i < allowed.length; i++) {
      allowed[i] = budgets.get(i).disruptionsAllowed();
    }
    List<PodInfo> violating = new ArrayList<>();
    List<PodInfo> nonViolating = new ArrayList<>();
    for (PodInfo p : pods) {
      boolean violated = false;
      for (int i = 0; i < allowed.length; i++) {
        if (!budgets.get(i).pdb().selects(p.pod().meta().namespace(), p.pod().meta().labels())) {
          continue;
        }
        if (allowed[i] <= 0) {
          violated = true;
          break;
        }
        allowed[i]--;
      }
      (violated ? violating : nonViolating).add(p);
    }
    return new Split(violating, nonViolating);
  }
}
