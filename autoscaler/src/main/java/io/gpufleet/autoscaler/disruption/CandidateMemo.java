package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.termination.DoNotDisrupt;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.workload.PodDisruptionBudget;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The candidate checks ({@link Candidates}) with each node's answer kept beside its state node. A
 * state node is an immutable value that the view reuses while the node, its NodeClaim and its pods
 * are unchanged; beyond it, the checks after the method's filter ({@link Candidates#blocked}) read
 * only its NodePool, the time (through duration-based do-not-disrupt) and the status of the PDBs
 * covering its pods. So the answer is kept while the NodePool is the same object, no protection's
 * duration ran out, the PDBs are the same objects and each PDB it read still blocks, or allows, as it
 * did. A poll then costs a lookup per node instead of a walk over its pods and their budgets, which
 * on a fleet of many small nodes with PDBs made most of each poll's cost (issue 33).
 */
final class CandidateMemo {

  /** What is kept for one state node, for the NodePool it was worked out under. */
  private static final class Facts {
    final NodePool pool;
    /** The answer of {@link Candidates#blocked} without and with {@code eventual}. */
    final Answer[] answers = new Answer[2];
    Candidate candidate;

    Facts(NodePool pool) {
      this.pool = pool;
    }
  }

  /**
   * An answer and what it read: the budget of each pod covered by exactly one (more than one blocks
   * whatever their status), with the status it had, and when a do-not-disrupt duration next ends.
   */
  private record Answer(Optional<String> blocked, List<PdbIndex.Entry> read, Instant until) {}

  private final IdentityHashMap<StateNode, Facts> facts = new IdentityHashMap<>();
  private ClusterView seen;
  private PdbIndex pdbs;
  private List<PodDisruptionBudget> specs = List.of();
  /** Whether each PDB of the last index allows no disruption now. */
  private final IdentityHashMap<PodDisruptionBudget, Boolean> blocking = new IdentityHashMap<>();

  /** Nodes that may be disrupted now, among those {@code filter} admits, as {@link Candidates#of}. */
  List<Candidate> of(ClusterView view, boolean eventual, DisruptionMethod.Filter filter) {
    List<Candidate> out = new ArrayList<>();
    for (StateNode n : view.nodes()) {
      if (rejection(n, view, eventual, filter).isEmpty()) {
        out.add(candidate(n, view));
      }
    }
    return out;
  }

  /** Why {@code n} is not a candidate for a method with {@code filter}; empty when it is one. */
  Optional<String> rejection(StateNode n, ClusterView view, boolean eventual, DisruptionMethod.Filter filter) {
    Optional<String> unmanaged = Candidates.nodeRejection(n, view);
    if (unmanaged.isPresent()) {
      return unmanaged;
    }
    sync(view);
    Facts f = facts(n, view);
    if (!filter.shouldDisrupt(n, f.pool, view.now())) {
      return Optional.of(Candidates.FILTERED);
    }
    int slot = eventual ? 1 : 0;
    Answer a = f.answers[slot];
    if (a == null || !holds(a, view.now())) {
      List<PdbIndex.Entry> read = new ArrayList<>();
      Optional<String> blocked = Candidates.blocked(n, f.pool, view, eventual, covering -> {
        if (covering.size() == 1) {
          read.add(covering.getFirst());
        }
      });
      a = new Answer(blocked, List.copyOf(read), DoNotDisrupt.nextExpiry(n, view.now()).orElse(null));
      f.answers[slot] = a;
    }
    return a.blocked();
  }

  /** {@code n}, which passed the checks, as a candidate. */
  private Candidate candidate(StateNode n, ClusterView view) {
    Facts f = facts(n, view);
    if (f.candidate == null) {
      f.candidate = Candidates.candidate(n, f.pool);
    }
    return f.candidate;
  }

  private Facts facts(StateNode n, ClusterView view) {
    NodePool pool = view.nodePool(n.claim().get().nodePool()).get();
    Facts f = facts.get(n);
    if (f == null || f.pool != pool) {
      f = new Facts(pool);
      facts.put(n, f);
    }
    return f;
  }

  private boolean holds(Answer a, Instant now) {
    if (a.until() != null && !now.isBefore(a.until())) {
      return false;
    }
    for (PdbIndex.Entry e : a.read()) {
      Boolean now0 = blocking.get(e.pdb());
      if (now0 == null || now0 != (e.disruptionsAllowed() <= 0)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Brings the memo to a new view: the PDBs' status read afresh, every answer dropped when a PDB came,
   * went or changed (which pods it covers may have), and the state nodes no longer in the view let go.
   */
  private void sync(ClusterView view) {
    if (view == seen) {
      return;
    }
    seen = view;
    if (view.pdbs() != pdbs) {
      pdbs = view.pdbs();
      List<PodDisruptionBudget> now = new ArrayList<>(pdbs.entries().size());
      blocking.clear();
      for (PdbIndex.Entry e : pdbs.entries()) {
        now.add(e.pdb());
        blocking.put(e.pdb(), e.disruptionsAllowed() <= 0);
      }
      if (!DisruptionSimulation.sameObjects(now, specs)) {
        facts.clear();
      }
      specs = now;
    }
    if (facts.size() > 2 * view.nodes().size() + 64) {
      Set<StateNode> live = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
      live.addAll(view.nodes());
      facts.keySet().retainAll(live);
    }
  }
}
