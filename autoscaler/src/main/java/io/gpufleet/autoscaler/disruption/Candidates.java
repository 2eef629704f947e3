package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.termination.DoNotDisrupt;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.DisruptionBudget;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Which nodes every disruption method may act on, and how budgets cut them down: the candidate
 * filter, {@code Consolidatable}, and the per-NodePool budget walk (reference §1.3, §1.5, §1.6;
 * {@code K:pkg/controllers/disruption/helpers.go} GetCandidates, {@code types.go} NewCandidate).
 */
final class Candidates {

  private Candidates() {}

  /**
   * Nodes that may be disrupted now, among those {@code filter} admits: each method only looks at
   * nodes it could act on, so the per-pod checks run only there. With {@code eventual} (drift), a
   * NodePool with a {@code terminationGracePeriod} lets nodes whose pods block eviction be
   * candidates anyway.
   */
  static List<Candidate> of(ClusterView view, boolean eventual, DisruptionMethod.Filter filter) {
    return new CandidateMemo().of(view, eventual, filter);
  }

  /** {@code n} as a candidate of {@code pool}. */
  static Candidate candidate(StateNode n, NodePool pool) {
    NodeClaim c = n.claim().get();
    List<Pod> pods = n.reschedulablePods();
    return new Candidate(n, c, pool, pods, c.pricePerHour(), disruptionCost(pods));
  }

  /**
   * A node's disruption cost: {@code PerNodeBaseDisruptionCost} (1) and each of its reschedulable
   * pods' eviction cost, where positive ({@code computeRescheduleDisruptionCost},
   * {@code K:pkg/controllers/disruption/types.go}).
   */
  static double disruptionCost(List<Pod> reschedulable) {
    double cost = BalancedScoring.PER_NODE_BASE_DISRUPTION_COST;
    for (Pod p : reschedulable) {
      cost += Math.max(0, evictionCost(p));
    }
    return cost;
  }

  /**
   * {@code EvictionCost} ({@code K:pkg/utils/disruption/disruption.go}): 1, plus the
   * {@code controller.kubernetes.io/pod-deletion-cost} annotation over 2^27 (one that does not parse
   * is left out, as upstream logs and skips it), plus the pod's priority over 2^25, clamped to [-10, 10].
   */
  static double evictionCost(Pod p) {
    double cost = 1.0;
    Optional<String> deletion = p.meta().annotations().get(POD_DELETION_COST);
    if (deletion.isPresent()) {
      try {
        cost += Double.parseDouble(deletion.get()) / Math.pow(2, 27);
      } catch (NumberFormatException e) {
        // upstream logs the parse error and leaves the annotation out
      }
    }
    cost += p.spec().priority() / Math.pow(2, 25);
    return Math.clamp(cost, -10.0, 10.0);
  }

  /** {@code corev1.PodDeletionCost}. */
  static final String POD_DELETION_COST = "controller.kubernetes.io/pod-deletion-cost";

  /** What the candidate filter says when the method's own filter turned the node down. */
  static final String FILTERED = "not one this method acts on";

  /**
   * The first checks of the candidate filter ({@link CandidateMemo#rejection}): the node is managed, registered, initialised, not leaving,
   * and its NodePool exists. Empty when they pass.
   */
  static Optional<String> nodeRejection(StateNode n, ClusterView view) {
    if (n.claim().isEmpty()) {
      return Optional.of("not managed by Karpenter");
    }
    if (n.node().isEmpty()) {
      return Optional.of("not registered yet");
    }
    if (n.markedForDeletion()) {
      return Optional.of("already being disrupted");
    }
    NodeClaim c = n.claim().get();
    if (!c.isInitialized()) {
      return Optional.of("not initialized yet");
    }
    if (c.isDeleting()) {
      return Optional.of("being deleted");
    }
    if (view.nodePool(c.nodePool()).isEmpty()) {
      return Optional.of("its NodePool " + c.nodePool() + " does not exist");
    }
    return Optional.empty();
  }

  /** The checks of the candidate filter that read only the node, which a caller may keep beside the state node. */
  static Optional<String> nodeBlocked(StateNode n) {
    // The words of the DisruptionBlocked events NewCandidate publishes (pkg/controllers/disruption/types.go:
    // pretty.Sentence of statenode.go's ValidateNodeDisruptable and ValidatePodsDisruptable errors).
    if ("true".equals(n.annotation(KarpenterLabels.DO_NOT_DISRUPT).orElse(""))) {
      return Optional.of("Disruption is blocked through the \"karpenter.sh/do-not-disrupt\" annotation");
    }
    if (!n.labels().has(KarpenterLabels.CAPACITY_TYPE) || !n.labels().has("topology.kubernetes.io/zone")) {
      return Optional.of("the node has no capacity-type or zone label");
    }
    return Optional.empty();
  }

  /**
   * The checks of the candidate filter after the method's filter: what blocks disrupting the node and
   * its pods. Tells {@code pdbReads} the budgets covering each pod whose eviction it asked about,
   * which is all of the cluster beyond the node, its NodePool and the time that the answer read.
   * {@code nodeBlocked} is {@link #nodeBlocked} of {@code n}.
   */
  static Optional<String> blocked(StateNode n, Optional<String> nodeBlocked, NodePool pool, ClusterView view,
      boolean eventual, Consumer<List<DisruptionBudget>> pdbReads) {
    if (nodeBlocked.isPresent()) {
      return nodeBlocked;
    }
    // Every active pod counts, not only the reschedulable ones: a DaemonSet or mirror pod marked
    // do-not-disrupt blocks the node, and so does a DaemonSet pod its PDB will not let go
    // ({@code K:pkg/controllers/state/statenode.go} ValidatePodsDisruptable; pdb.go isEvictable skips mirror pods).
    if (eventual && pool.template().terminationGracePeriod().isPresent()) {
      return Optional.empty();
    }
    for (Pod p : n.pods()) {
      if (n.terminating().contains(p.key())) {
        continue;
      }
      if (DoNotDisrupt.active(n, p, view.now())) {
        return Optional.of("Pod has \"karpenter.sh/do-not-disrupt\" annotation (Pod=" + p.key() + ")");
      }
      if (!StateNode.isMirror(p)) {
        List<DisruptionBudget> covering = view.pdbs().covering(p);
        pdbReads.accept(covering);
        Optional<String> pdb = PdbIndex.evictionBlocked(covering);
        if (pdb.isPresent()) {
          String why = pdb.get();
          return Optional.of(Character.toUpperCase(why.charAt(0)) + why.substring(1));
        }
      }
    }
    return Optional.empty();
  }

  /**
   * {@code Consolidatable} (reference §1.3): initialised, {@code consolidateAfter} not Never, and at
   * least {@code consolidateAfter} since the last pod event (or initialisation).
   */
  static boolean consolidatable(StateNode n, NodePool pool, Instant now) {
    Instant at = consolidatableAt(n, pool);
    return at != null && !now.isBefore(at);
  }

  /** When {@link #consolidatable} turns true (and stays so while the node is unchanged); null when never. */
  static Instant consolidatableAt(StateNode n, NodePool pool) {
    Optional<Duration> after = pool.disruption().consolidateAfter();
    if (after.isEmpty() || n.claim().isEmpty() || !n.claim().get().isInitialized()) {
      return null;
    }
    Instant since = n.lastPodEvent();
    Instant init = n.claim().get().initialized().get();
    if (init.isAfter(since)) {
      since = init;
    }
    return since.plus(after.get());
  }

  /**
   * In name order, cut to {@code budgets} ({@link DisruptionBudgets#allowed} for the method's reason, read
   * only when there is a candidate): how emptiness and drift pick theirs.
   */
  static List<Candidate> inNameOrderWithinBudgets(List<Candidate> candidates,
      Supplier<Map<String, Integer>> budgets) {
    List<Candidate> sorted = new ArrayList<>(candidates);
    sorted.sort(Comparator.comparing(Candidate::name));
    return withinBudgets(sorted, budgets);
  }

  /** As above, the budgets ({@link DisruptionBudgets#allowed}) read of {@code budgets} only when there is a candidate. */
  static List<Candidate> withinBudgets(List<Candidate> candidates, Supplier<Map<String, Integer>> budgets) {
    return withinBudgets(candidates, budgets, Integer.MAX_VALUE);
  }

  /** As above, no more than the first {@code limit} that it takes. */
  static List<Candidate> withinBudgets(List<Candidate> candidates, Supplier<Map<String, Integer>> budgets, int limit) {
    if (candidates.isEmpty()) {
      return new ArrayList<>(); // no budget to read: most polls of a quiet cluster
    }
    Map<String, Integer> allowed = new HashMap<>(budgets.get());
    List<Candidate> out = new ArrayList<>();
    for (int i = 0; i < candidates.size() && out.size() < limit; i++) {
      Candidate c = candidates.get(i);
      int left = allowed.getOrDefault(c.pool().name(), 0);
      if (left > 0) {
        out.add(c);
        if (left != DisruptionBudgets.UNLIMITED) {
          allowed.put(c.pool().name(), left - 1);
        }
      }
    }
    return out;
  }
}
