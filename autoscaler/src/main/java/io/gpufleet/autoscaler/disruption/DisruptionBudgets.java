package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.Budget;
import io.gpufleet.model.karpenter.DisruptionReason;
import io.gpufleet.model.karpenter.NodePool;
import java.util.HashMap;
import java.util.Map;

/**
 * How many more nodes each NodePool may have disrupted for a reason right now (reference §1.6): the
 * least of its active budgets that apply to the reason, percentages of its node count rounded up,
 * less the nodes already deleting or being disrupted. No active budget means no limit.
 */
public final class DisruptionBudgets {
  private DisruptionBudgets() {}

  public static final int UNLIMITED = Integer.MAX_VALUE;

  /** A NodePool's managed nodes, and how many of them are deleting or being disrupted. */
  static final class Count {
    int nodes;
    int disrupting;
  }

  public static Map<String, Integer> allowed(ClusterView view, DisruptionReason reason) {
    Map<String, Count> counts = new HashMap<>();
    for (StateNode n : view.nodes()) {
      count(counts, n, 1);
    }
    return allowed(view, reason, counts);
  }

  /** Counts {@code n} in (1) or out (-1) of its NodePool's numbers, when Karpenter manages it; a count of none goes. */
  static void count(Map<String, Count> counts, StateNode n, int sign) {
    if (n.claim().isEmpty()) {
      return;
    }
    var claim = n.claim().get();
    Count c = counts.computeIfAbsent(claim.nodePool(), p -> new Count());
    c.nodes += sign;
    if (n.markedForDeletion() || claim.isDeleting()) {
      c.disrupting += sign;
    }
    if (c.nodes == 0 && c.disrupting == 0) {
      counts.remove(claim.nodePool());
    }
  }

  /** {@link #allowed(ClusterView, DisruptionReason)} from the nodes counted per NodePool. */
  static Map<String, Integer> allowed(ClusterView view, DisruptionReason reason, Map<String, Count> counts) {
    Map<String, Integer> out = new HashMap<>();
    for (NodePool p : view.nodePools()) {
      Count count = counts.get(p.name());
      int nodes = count == null ? 0 : count.nodes;
      int min = UNLIMITED;
      for (Budget b : p.disruption().budgets()) {
        if (b.appliesTo(reason) && b.isActive(view.now())) {
          min = Math.min(min, b.allowed(nodes));
        }
      }
      out.put(p.name(), min == UNLIMITED ? UNLIMITED : Math.max(0, min - (count == null ? 0 : count.disrupting)));
    }
    return out;
  }
}
