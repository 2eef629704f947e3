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

  public static Map<String, Integer> allowed(ClusterView view, DisruptionReason reason) {
    Map<String, Integer> total = new HashMap<>();
    Map<String, Integer> disrupting = new HashMap<>();
    for (StateNode n : view.nodes()) {
      if (n.claim().isEmpty()) {
        continue;
      }
      String pool = n.claim().get().nodePool();
      total.merge(pool, 1, Integer::sum);
      if (n.markedForDeletion() || n.claim().get().isDeleting()) {
        disrupting.merge(pool, 1, Integer::sum);
      }
    }
    Map<String, Integer> out = new HashMap<>();
    for (NodePool p : view.nodePools()) {
      int nodes = total.getOrDefault(p.name(), 0);
      int min = UNLIMITED;
      for (Budget b : p.disruption().budgets()) {
        if (b.appliesTo(reason) && b.isActive(view.now())) {
          min = Math.min(min, b.allowed(nodes));
        }
      }
      out.put(p.name(), min == UNLIMITED ? UNLIMITED : Math.max(0, min - disrupting.getOrDefault(p.name(), 0)));
    }
    return out;
  }
}
