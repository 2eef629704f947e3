package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.NodeLog;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.DisruptionReason;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How many nodes of each NodePool Karpenter manages, and how many of them are leaving: what the
 * disruption budgets are worked out from ({@link DisruptionBudgets#allowed}). Counted once, then
 * brought from view to view by the view builder's splices ({@link NodeLog}): a shortcut of the twin's,
 * not a step of Karpenter's, which counts every node at each poll and validation; that count grew
 * with the fleet (issue 33 item 7). PoolCountsTest compares it with a count of every node.
 */
final class PoolCounts {

  /** The state nodes of the last view brought, in its order; the list and the log entry they match. */
  private final ArrayList<StateNode> nodes = new ArrayList<>();
  private List<StateNode> nodesOf;
  private NodeLog log;
  /** By NodePool name: its managed nodes, and those deleting or being disrupted. */
  private final Map<String, DisruptionBudgets.Count> counts = new HashMap<>();

  /** {@link DisruptionBudgets#allowed} over {@code view}. */
  Map<String, Integer> allowed(ClusterView view, DisruptionReason reason) {
    bring(view);
    return DisruptionBudgets.allowed(view, reason, counts);
  }

  private void bring(ClusterView view) {
    List<StateNode> now = view.nodes();
    if (now != nodesOf) {
      List<NodeLog> path = nodesOf == null ? null : log.pathTo(view.nodeLog(), nodes.size(), now.size());
      if (path == null) {
        counts.clear();
        nodes.clear();
        nodes.addAll(now);
        for (StateNode n : now) {
          DisruptionBudgets.count(counts, n, 1);
        }
      } else {
        NodeLog.apply(path, nodes, n -> {
          DisruptionBudgets.count(counts, n, 1);
          return n;
        }, n -> DisruptionBudgets.count(counts, n, -1));
      }
      nodesOf = now;
    }
    log = view.nodeLog();
  }
}
