package io.gpufleet.report.timeline;

import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.sim.state.ClusterState;
import io.gpufleet.sim.state.NodeState;
import java.util.Locale;
import java.util.Optional;

/** Where a node is in its life, as Karpenter's NodeClaim conditions and the Node say it. */
public enum NodeLifecycle {
  LAUNCHING, LAUNCHED, REGISTERED, INITIALIZED, CORDONED, DRAINING;

  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The lifecycle of a registered node. */
  public static NodeLifecycle of(ClusterState s, NodeState n) {
    Optional<NodeClaim> claim = n.claim().flatMap(s::claim);
    if (claim.map(NodeClaim::isDeleting).orElse(false)) {
      return DRAINING;
    }
    if (n.node().unschedulable()) {
      return CORDONED;
    }
    // A node that joined without a NodeClaim (the scenario's own) counts as initialised once Ready.
    boolean initialized = claim.map(NodeClaim::isInitialized).orElse(n.ready());
    return initialized ? INITIALIZED : REGISTERED;
  }

  /** The lifecycle of a NodeClaim whose node has not registered. */
  public static NodeLifecycle of(NodeClaim c) {
    if (c.isDeleting()) {
      return DRAINING;
    }
    return c.isLaunched() ? LAUNCHED : LAUNCHING;
  }
}
