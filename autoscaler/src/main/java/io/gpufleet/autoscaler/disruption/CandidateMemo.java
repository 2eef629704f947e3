package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.provisioning.Provisioner;
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

/**
 * The candidate checks ({@link Candidates}) with each node's answer kept beside its state node. A
 * state node is an immutable value that the view reuses while the node, its NodeClaim and its pods
 * are unchanged; beyond it, the checks after the method's filter ({@link Candidates#blocked}) read
 * only its NodePool, the time (through duration-based do-not-disrupt) and the status of the PDBs
 * covering its pods. So the answer is kept while the NodePool is the same object, no protection's
 * duration ran out, the PDBs are the same objects and each PDB it read still blocks, or allows, as it
 * did. A poll then costs a lookup per node instead of a walk over its pods and their budgets, which
 * on a fleet of many small nodes with PDBs made most of each poll's cost (issue 33).
 *
 * <p>The facts of the last view's nodes are kept in its order ({@link #rows}); the next view is
 * matched to them by identity, position first, so a view that changed a few nodes costs a pointer
 * comparison for each other node and fresh facts only for those few (issue 33 item 7: the week
 * shape polls after every change, over nodes that mostly did not change).
 */
final class CandidateMemo {

  /**
   * An answer and what it read: the budget of each pod covered by exactly one (more than one blocks
   * whatever their status), with the status it had, and when a do-not-disrupt duration next ends.
   * {@link #checked} is the PDB status epoch it was last found to hold in: in the same epoch it holds.
   */
  static final class Answer {
    final Optional<String> blocked;
    final List<PdbIndex.Entry> read;
    final Instant until;
    long checked;

    Answer(Optional<String> blocked, List<PdbIndex.Entry> read, Instant until, long checked) {
      this.blocked = blocked;
      this.read = read;
      this.until = until;
      this.checked = checked;
    }
  }

  /** The facts of every state node the memo knows, by identity. */
  private final IdentityHashMap<StateNode, NodeFacts> facts = new IdentityHashMap<>();
  /** The facts of the last view's nodes, in its order, and the list of state nodes they follow. */
  private NodeFacts[] rows = new NodeFacts[0];
  private List<StateNode> rowsOf;
  private long generation;
  private ClusterView seen;
  private List<NodePool> pools;
  private PdbIndex pdbs;
  private List<PodDisruptionBudget> specs = List.of();
  /** Whether each PDB of the last index allows no disruption now. */
  private final IdentityHashMap<PodDisruptionBudget, Boolean> blocking = new IdentityHashMap<>();
  /**
   * Counts the PDB indexes in which some PDB came to block, or to allow, where the index before it did
   * not: an answer checked in the same epoch holds without looking at its PDBs again, since a new index
   * (each pod change makes one) mostly changes only how many disruptions PDBs allow, not whether any.
   */
  private long statusEpoch;
  /**
   * What changed in {@link #rows} since {@link #drain}: facts that came into the rows, facts that left
   * them, and PDBs that came to block or to allow; {@code full} when that is not known (a PDB set
   * changed, or more changed than the rows hold), so the reader must look at every row.
   */
  private List<NodeFacts> added = new ArrayList<>();
  private List<NodeFacts> left = new ArrayList<>();
  private List<PodDisruptionBudget> flips = new ArrayList<>();
  private boolean full = true;

  /** What changed in the rows since the last call (see {@link #added}); the first call says {@code full}. */
  record Changes(List<NodeFacts> added, List<NodeFacts> left, List<PodDisruptionBudget> flips, boolean full) {}

  Changes drain() {
    Changes out = new Changes(added, left, flips, full);
    added = new ArrayList<>();
    left = new ArrayList<>();
    flips = new ArrayList<>();
    full = false;
    return out;
  }

  /** Gives up the journal once it outgrows the rows: the reader then looks at every row. */
  private void bound() {
    if (added.size() + left.size() + flips.size() > 2 * rows.length + 64) {
      added.clear();
      left.clear();
      flips.clear();
      full = true;
    }
  }

  /** Nodes that may be disrupted now, among those {@code filter} admits, as {@link Candidates#of}. */
  List<Candidate> of(ClusterView view, boolean eventual, DisruptionMethod.Filter filter) {
    List<Candidate> out = new ArrayList<>();
    for (NodeFacts f : rows(view)) {
      if (rejection(f, view, eventual, filter).isEmpty()) {
        out.add(candidate(f));
      }
    }
    return out;
  }

  /**
   * The candidate of NodeClaim {@code claim}, as {@link #of} would list it, without answering for every
   * other node; empty when it is none.
   */
  Optional<Candidate> candidate(ClusterView view, String claim, boolean eventual, DisruptionMethod.Filter filter) {
    rows(view);
    Optional<StateNode> n = view.node(claim);
    if (n.isEmpty()) {
      return Optional.empty(); // no node of the view has it: not among the rows
    }
    if (n.get().claim().map(c -> !c.name().equals(claim)).orElse(true)) {
      // The name is a node's, not this claim's: look among every candidate, as a list by claim would.
      return of(view, eventual, filter).stream().filter(c -> c.name().equals(claim)).findFirst();
    }
    NodeFacts f = facts.get(n.get());
    if (f == null || !listed(f)) {
      return Optional.empty();
    }
    return rejection(f, view, eventual, filter).isEmpty() ? Optional.of(candidate(f)) : Optional.empty();
  }

  /** Why {@code n} is not a candidate for a method with {@code filter}; empty when it is one. */
  Optional<String> rejection(StateNode n, ClusterView view, boolean eventual, DisruptionMethod.Filter filter) {
    rows(view);
    NodeFacts f = facts.get(n);
    if (f == null) { // not one of the view's nodes: asked afresh
      f = fresh(n, view);
    }
    return rejection(f, view, eventual, filter);
  }

  /** As {@link #rejection(StateNode, ClusterView, boolean, DisruptionMethod.Filter)}, of facts of the view's nodes. */
  Optional<String> rejection(NodeFacts f, ClusterView view, boolean eventual, DisruptionMethod.Filter filter) {
    if (f.unmanaged.isPresent()) {
      return f.unmanaged;
    }
    if (!f.admittedBy(filter, view.now())) {
      return Optional.of(Candidates.FILTERED);
    }
    return answer(f, view, eventual).blocked;
  }

  /** Whether {@code f} is among the facts of the last view {@link #rows} was asked about. */
  boolean listed(NodeFacts f) {
    return f.listed == generation;
  }

  /** The kept answer of {@link Candidates#blocked} for a managed node, worked out again when it may have changed. */
  Answer answer(NodeFacts f, ClusterView view, boolean eventual) {
    int slot = eventual ? 1 : 0;
    Answer a = f.answers[slot];
    if (a != null && !holds(a, view.now())) {
      // A PDB that switched mostly switches back: the answer before this one holds again when every
      // PDB it read has the status it read and no duration it saw has ended (the facts are the same).
      Answer before = f.before[slot];
      f.before[slot] = a;
      a = before != null && holds(before, view.now()) ? before : null;
      f.answers[slot] = a;
    }
    if (a == null) {
      List<PdbIndex.Entry> read = new ArrayList<>();
      Optional<String> blocked = Candidates.blocked(f.node, f.nodeBlocked(), f.pool, view, eventual, covering -> {
        if (covering.size() == 1) {
          read.add(covering.getFirst());
        }
      });
      a = new Answer(blocked, List.copyOf(read), DoNotDisrupt.nextExpiry(f.node, view.now()).orElse(null),
          statusEpoch);
      f.answers[slot] = a;
    }
    return a;
  }

  /** {@code f}, which passed the checks, as a candidate. */
  Candidate candidate(NodeFacts f) {
    if (f.candidate == null) {
      f.candidate = Candidates.candidate(f.node, f.pool);
    }
    return f.candidate;
  }

  private boolean holds(Answer a, Instant now) {
    if (a.until != null && !now.isBefore(a.until)) {
      return false;
    }
    if (a.checked == statusEpoch) {
      return true; // the statuses it was checked against are those of now
    }
    for (PdbIndex.Entry e : a.read) {
      Boolean now0 = blocking.get(e.pdb());
      if (now0 == null || now0 != (e.disruptionsAllowed() <= 0)) {
        return false;
      }
    }
    a.checked = statusEpoch;
    return true;
  }

  /**
   * The facts of {@code view}'s nodes in its order, brought from the last view's: the PDBs' status
   * read afresh, every answer dropped when a PDB came, went or changed (which pods it covers may
   * have), facts made anew for a node whose state node or NodePool object is new, and those of nodes
   * no longer in the view let go.
   */
  NodeFacts[] rows(ClusterView view) {
    if (view == seen) {
      return rows;
    }
    seen = view;
    if (view.pdbs() != pdbs) {
      pdbs = view.pdbs();
      List<PodDisruptionBudget> now = new ArrayList<>(pdbs.entries().size());
      for (PdbIndex.Entry e : pdbs.entries()) {
        now.add(e.pdb());
      }
      if (!Provisioner.sameObjects(now, specs)) {
        facts.clear();
        rows = new NodeFacts[0];
        rowsOf = null;
        blocking.clear();
        statusEpoch++;
        full = true;
      }
      boolean flipped = false;
      for (PdbIndex.Entry e : pdbs.entries()) {
        Boolean was = blocking.put(e.pdb(), e.disruptionsAllowed() <= 0);
        if (was == null || was != (e.disruptionsAllowed() <= 0)) {
          flipped = true;
          if (!full) {
            flips.add(e.pdb());
          }
        }
      }
      if (flipped) {
        statusEpoch++;
      }
      specs = now;
    }
    boolean samePools = pools != null && Provisioner.sameObjects(view.nodePools(), pools);
    pools = view.nodePools();
    List<StateNode> nodes = view.nodes();
    if (nodes == rowsOf && samePools) {
      return rows; // the very list of state nodes (the view builder keeps it while no node changed)
    }
    rowsOf = nodes;
    NodeFacts[] before = rows;
    NodeFacts[] next = new NodeFacts[nodes.size()];
    long gen = ++generation;
    boolean changed = before.length != next.length;
    int shift = 0; // where the last view's order continues: a node that came or went shifts the rest
    for (int i = 0; i < next.length; i++) {
      StateNode n = nodes.get(i);
      int j = i + shift;
      NodeFacts f = j < before.length && before[j].node == n ? before[j] : facts.get(n);
      if (f != null) {
        shift = f.at - i;
        f.at = i;
      }
      if (f != null && !samePools && f.pool != poolOf(n, view)) {
        f = null;
      }
      if (f == null) {
        f = fresh(n, view);
        f.at = i;
        facts.put(n, f);
        if (!full) {
          added.add(f);
        }
      }
      changed |= i >= before.length || f != before[i];
      f.listed = gen;
      next[i] = f;
    }
    if (changed) {
      for (NodeFacts f : before) {
        if (f.listed != gen) {
          if (facts.get(f.node) == f) {
            facts.remove(f.node);
          }
          if (!full) {
            left.add(f);
          }
        }
      }
    }
    rows = next;
    if (!full) {
      bound();
    }
    return rows;
  }

  private static NodePool poolOf(StateNode n, ClusterView view) {
    return n.claim().flatMap(c -> view.nodePool(c.nodePool())).orElse(null);
  }

  private static NodeFacts fresh(StateNode n, ClusterView view) {
    NodeFacts f = new NodeFacts(n, poolOf(n, view));
    f.unmanaged = Candidates.nodeRejection(n, view);
    return f;
  }
}
