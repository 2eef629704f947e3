package io.gpufleet.autoscaler.termination;

import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.pod.Pod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The pods of a leaving node Karpenter provisions for now ({@code K:pkg/utils/pdb/pdb.go}
 * IsCurrentlyReschedulable, PR #2033): reschedulable pods that can be evicted today, so neither an
 * active {@code karpenter.sh/do-not-disrupt} nor a fully blocking PDB holds them. A pod that cannot
 * move yet gets no capacity until it can: it is provisioned for once the drain evicts it (or the
 * node's termination grace period deletes it) and it is pending.
 */
public final class CurrentlyReschedulable {
  private CurrentlyReschedulable() {}

  /** Whether Karpenter would provision for {@code p}, a reschedulable pod of {@code n}, at {@code now}. */
  public static boolean test(StateNode n, Pod p, PdbIndex pdbs, Instant now) {
    return !DoNotDisrupt.active(n, p, now) && pdbs.fullyBlocked(p).isEmpty();
  }

  /** {@code n.reschedulablePods()} less those that cannot move yet ({@code K:pkg/controllers/state/statenode.go} CurrentlyReschedulablePods). */
  public static List<Pod> pods(StateNode n, PdbIndex pdbs, Instant now) {
    List<Pod> out = new ArrayList<>();
    for (Pod p : n.reschedulablePods()) {
      if (test(n, p, pdbs, now)) {
        out.add(p);
      }
    }
    return out;
  }

  /** As {@link #pods}, over a candidate's already gathered reschedulable pods. */
  public static List<Pod> filter(StateNode n, List<Pod> reschedulable, PdbIndex pdbs, Instant now) {
    List<Pod> out = new ArrayList<>();
    for (Pod p : reschedulable) {
      if (test(n, p, pdbs, now)) {
        out.add(p);
      }
    }
    return out;
  }
}
