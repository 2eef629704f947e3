package io.gpufleet.autoscaler.termination;

import io.gpufleet.autoscaler.action.Action;
import io.gpufleet.autoscaler.action.RemovalReason;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.taint.Tolerations;
import io.gpufleet.model.workload.DisruptionBudget;
import io.gpufleet.model.workload.PodDisruptionBudget;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Karpenter's termination controller (reference §1.8): a deleting NodeClaim's node is tainted
 * {@code karpenter.sh/disrupted:NoSchedule} and drained through the Eviction API, which honours
 * PDBs, in two tiers (ordinary pods first, then daemon and critical ones); pods that
 * {@code karpenter.sh/do-not-disrupt} protects now ({@link DoNotDisrupt}) are left alone. With a {@code terminationGracePeriod} each pod
 * is force-deleted at {@code deadline − its own terminationGracePeriodSeconds}, granted the time left
 * to the deadline (a pod whose grace outlasts the node's is deleted at once with the node's
 * remaining grace), and at the deadline nothing waits. Pods that tolerate {@code karpenter.sh/disrupted:NoSchedule}
 * would only be scheduled back, so they are not drained and go down with the node
 * ({@code ToleratesDisruptedNoScheduleTaint} in {@code K:pkg/utils/pod/scheduling.go}). Once no other pod
 * is left the instance is terminated.
 */
public final class Termination {
  private Termination() {}

  /** How the drain reads the reason a claim is deleting. */
  public static List<Action> reconcile(ClusterView view, Function<String, RemovalReason> reasonOf) {
    return reconcile(view, view.nodes(), reasonOf);
  }

  /**
   * As {@link #reconcile(ClusterView, Function)}, looking only at {@code nodes}: the view's state nodes,
   * in its order, among which every deleting NodeClaim's is (a runtime that knows which claims are
   * deleting then costs them, not the fleet).
   */
  public static List<Action> reconcile(ClusterView view, List<StateNode> nodes, Function<String, RemovalReason> reasonOf) {
    List<Action> out = new ArrayList<>();
    Map<String, Integer> allowed = null; // what each PDB allows, shared by the drains: only once one drains
    for (StateNode n : nodes) {
      if (n.claim().isEmpty() || !n.claim().get().isDeleting()) {
        continue;
      }
      if (allowed == null) {
        allowed = new HashMap<>();
        for (DisruptionBudget e : view.pdbs().entries()) {
          allowed.put(e.pdb().meta().key(), e.disruptionsAllowed());
        }
      }
      drain(n, view, allowed, reasonOf.apply(n.claim().get().name()), out);
    }
    return out;
  }

  private static void drain(StateNode n, ClusterView view, Map<String, Integer> allowed, RemovalReason reason,
      List<Action> out) {
    NodeClaim c = n.claim().get();
    if (n.node().isEmpty()) {
      // Never registered: nothing to drain.
      out.add(new Action.TerminateInstance(c.name()));
      return;
    }
    String node = n.node().get().name();
    if (n.node().get().taints().stream().noneMatch(KarpenterLabels.DISRUPTED::sameKeyAndEffect)) {
      out.add(new Action.TaintNode(node, KarpenterLabels.DISRUPTED));
    }
    Instant now = view.now();
    Optional<Instant> deadline = c.terminationGracePeriod().map(tgp -> c.deletionRequested().get().plus(tgp));
    List<Pod> first = new ArrayList<>();
    List<Pod> second = new ArrayList<>();
    for (Pod p : n.pods()) {
      if (n.terminating().contains(p.key()) || toleratesDisrupted(p)) {
        continue;
      }
      (isDaemonOrCritical(p) ? second : first).add(p);
    }
    boolean waiting = false;
    for (Pod p : n.pods()) {
      if (n.terminating().contains(p.key()) && !toleratesDisrupted(p)) {
        waiting = true; // terminating pods must finish before the instance goes
      }
    }
    List<Pod> tier = first.isEmpty() ? second : first;
    for (Pod p : first.isEmpty() ? List.<Pod>of() : second) {
      if (forceDue(p, deadline, now)) {
        out.add(Action.Evict.forced(p.key(), node, reason, remainingGrace(deadline.get(), now)));
      }
    }
    for (Pod p : tier) {
      waiting = true;
      if (forceDue(p, deadline, now)) {
        out.add(Action.Evict.forced(p.key(), node, reason, remainingGrace(deadline.get(), now)));
        continue;
      }
      if (DoNotDisrupt.active(n, p, now)) {
        continue;
      }
      List<DisruptionBudget> pdbs = view.pdbs().covering(p);
      if (pdbs.size() > 1) {
        continue; // eviction does not support multiple PDBs
      }
      if (pdbs.size() == 1) {
        PodDisruptionBudget b = pdbs.getFirst().pdb();
        int left = allowed.getOrDefault(b.meta().key(), 0);
        if (left <= 0) {
          continue;
        }
        allowed.put(b.meta().key(), left - 1);
      }
      out.add(Action.Evict.viaApi(p.key(), node, reason));
    }
    if (!waiting && second.isEmpty()) {
      out.add(new Action.TerminateInstance(c.name()));
    } else if (deadline.isPresent() && !now.isBefore(deadline.get())) {
      out.add(new Action.TerminateInstance(c.name()));
    }
  }

  /** When, by the NodePool's grace period, this pod must be force-deleted to still get its own grace. */
  static boolean forceDue(Pod p, Optional<Instant> deadline, Instant now) {
    if (deadline.isEmpty()) {
      return false;
    }
    Instant due = deadline.get().minus(Duration.ofSeconds(p.spec().terminationGracePeriodSeconds()));
    return !now.isBefore(due);
  }

  /**
   * The grace a forced deletion grants: the whole seconds left until the node's termination time,
   * at least 1 s so the pod is never removed from etcd at once ({@code forceDelete} in
   * {@code K:pkg/controllers/node/termination/terminator/eviction.go}).
   */
  static Duration remainingGrace(Instant deadline, Instant now) {
    return Duration.ofSeconds(Math.max(Duration.between(now, deadline).getSeconds(), 1));
  }

  static boolean toleratesDisrupted(Pod p) {
    return Tolerations.tolerates(p.spec().tolerations(), KarpenterLabels.DISRUPTED);
  }

  static boolean isDaemonOrCritical(Pod p) {
    if (StateNode.isDaemon(p)) {
      return true;
    }
    String pc = p.spec().priorityClassName().orElse("");
    return pc.equals("system-cluster-critical") || pc.equals("system-node-critical");
  }

  /**
   * The next instant after {@code now} a forced deletion or the node's termination time falls due on
   * this claim, so the runtime can wake up then. Dues already past were acted on; skipping them
   * keeps the wake-up at the termination time itself.
   */
  public static Optional<Instant> nextForceDeadline(StateNode n, Instant now) {
    if (n.claim().isEmpty() || n.claim().get().terminationGracePeriod().isEmpty()
        || n.claim().get().deletionRequested().isEmpty()) {
      return Optional.empty();
    }
    NodeClaim c = n.claim().get();
    Instant deadline = c.deletionRequested().get().plus(c.terminationGracePeriod().get());
    if (!deadline.isAfter(now)) {
      return Optional.empty();
    }
    Instant best = deadline;
    for (Pod p : n.pods()) {
      Instant due = deadline.minus(Duration.ofSeconds(p.spec().terminationGracePeriodSeconds()));
      if (due.isAfter(now) && due.isBefore(best)) {
        best = due;
      }
    }
    return Optional.of(best);
  }
}
