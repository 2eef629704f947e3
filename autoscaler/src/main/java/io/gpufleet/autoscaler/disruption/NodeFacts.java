package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.termination.DoNotDisrupt;
import io.gpufleet.model.karpenter.NodePool;
import java.time.Instant;
import java.util.Optional;

/**
 * What the disruption poll reads of one state node under one NodePool object, worked out once: a
 * state node is an immutable value the view reuses while the node, its NodeClaim and its pods are
 * unchanged, so these stay right for as long as both objects do. What also depends on the time is
 * kept as the instant it turns ({@link #consolidatableAt}), and the answers that read PDBs with what
 * they read ({@link CandidateMemo}). A poll over a cluster that barely changed then reads fields of
 * the nodes that did not change instead of walking their pods again.
 */
final class NodeFacts {

  final StateNode node;
  /** The node's NodePool; null when it has no NodeClaim or its NodePool does not exist. */
  final NodePool pool;
  /** Whether the node has no pod that would need to move ({@link StateNode#isEmpty}). */
  final boolean empty;
  /** When {@link Candidates#consolidatable} turns true, for good; null when it never does. */
  final Instant consolidatableAt;

  // ---- what the memo keeps beside the facts (CandidateMemo and DisruptionController) ----

  /** {@link Candidates#nodeRejection}: worked out for the view whose NodePools {@link #pool} came from. */
  Optional<String> unmanaged;
  /** The answers of {@link Candidates#blocked} without and with {@code eventual}. */
  final CandidateMemo.Answer[] answers = new CandidateMemo.Answer[2];
  /** The answers each of {@link #answers} replaced, kept in case they hold again. */
  final CandidateMemo.Answer[] before = new CandidateMemo.Answer[2];
  Candidate candidate;
  /** The last refusal {@link DisruptionController} worked out for the node, and the answer it came from. */
  ConsolidationRefusal refusal;
  CandidateMemo.Answer refusalFrom;
  /** The refusal {@link DisruptionController}'s kept map holds for the node; null when none. */
  ConsolidationRefusal shown;
  /**
   * What the last refusal worked out for the node read beyond its facts: the candidate answer it came
   * from (null: none), and whether it also read the time, budgets or a simulation.
   */
  CandidateMemo.Answer refusalRead;
  boolean unsettled;
  /** The answer under whose PDBs the controller last listed the node; null when to be listed again. */
  CandidateMemo.Answer indexed;
  /** The controller's refresh that last queued the node, so it is visited once. */
  long queued;
  private Optional<String> disabled;
  /** The next end of a do-not-disrupt duration after {@link #protectedAsOf}; null when none. */
  Instant protectedUntil;
  Instant protectedAsOf;
  /** The view generation that last listed these facts (to find those that left), and where. */
  long listed;
  int at;
  /** The stamp of the last candidate list of a memo's filter that found the facts changed since the one before. */
  long mark;

  NodeFacts(StateNode node, NodePool pool) {
    this.node = node;
    this.pool = pool;
    this.empty = node.isEmpty();
    this.consolidatableAt = pool == null ? null : Candidates.consolidatableAt(node, pool);
  }

  /**
   * {@link Candidates#nodeBlocked}: the candidate checks that read only the node, kept so that an
   * answer worked out again after a PDB switched reads only the pods (issue 33 item 7).
   */
  Optional<String> nodeBlocked() {
    if (nodeBlocked == null) {
      nodeBlocked = Candidates.nodeBlocked(node);
    }
    return nodeBlocked;
  }

  private Optional<String> nodeBlocked;

  /** {@link Consolidation#disabledBy} of the node's NodePool; only for managed nodes. */
  Optional<String> consolidationDisabled() {
    if (disabled == null) {
      disabled = Consolidation.disabledBy(pool);
    }
    return disabled;
  }

  /** {@link Candidates#consolidatable} at {@code now}. */
  boolean consolidatableBy(Instant now) {
    timeRead = true;
    return consolidatableAt != null && !now.isBefore(consolidatableAt);
  }

  /** Set by {@link #consolidatableBy}: whether a filter asked read the time (CandidateMemo clears it before asking). */
  boolean timeRead;

  /** The node's NodeClaim name; only for managed nodes. */
  String claimName() {
    return node.claim().get().name();
  }

  /**
   * A candidate filter that reads only a node's facts, and the time only through
   * {@link #consolidatableBy} (so its answer for the same facts turns at most at
   * {@link #consolidatableAt}), so that a poll asks it without reading the node's pods again. Asked of a node and NodePool directly, it works out their facts first: one
   * definition serves both ways.
   */
  @FunctionalInterface
  interface Filter extends DisruptionMethod.Filter {
    boolean admits(NodeFacts facts, Instant now);

    @Override
    default boolean shouldDisrupt(StateNode node, NodePool pool, Instant now) {
      return admits(new NodeFacts(node, pool), now);
    }
  }

  /** {@code filter} asked of these facts: through them when it reads only them. */
  boolean admittedBy(DisruptionMethod.Filter filter, Instant now) {
    return filter instanceof Filter f ? f.admits(this, now) : filter.shouldDisrupt(node, pool, now);
  }

  /** {@code DoNotDisrupt.nextExpiry(node, now)}, kept while no duration it saw has ended. */
  Optional<Instant> nextProtectionEnd(Instant now) {
    if (protectedAsOf == null || now.isBefore(protectedAsOf)
        || (protectedUntil != null && !now.isBefore(protectedUntil))) {
      protectedUntil = DoNotDisrupt.nextExpiry(node, now).orElse(null);
      protectedAsOf = now;
    }
    return Optional.ofNullable(protectedUntil);
  }
}
