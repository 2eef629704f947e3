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

  /**
   * The state's colour wherever a lifecycle is drawn: the report's lanes and legend, and the
   * dashboard's lanes and node cards (its app.css holds the same values; a web test checks they agree),
   * so a colour means one state in every report.
   */
  public String colour() {
    return switch (this) {
      case LAUNCHING, LAUNCHED -> "#afb8c1";
      case REGISTERED -> "#d4a72c";
      case INITIALIZED -> "#2da44e";
      case CORDONED, DRAINING -> "#cf222e";
    };
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
