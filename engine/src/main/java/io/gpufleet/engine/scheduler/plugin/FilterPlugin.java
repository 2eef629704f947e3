package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A Filter extension point: may this pod run on this node? */
public interface FilterPlugin {

  /** The plugin's name as in a KubeSchedulerConfiguration. */
  String pluginName();

  Status filter(PodInfo pod, NodeInfo node);

  /**
   * Whether this plugin's verdict and status on a node depend only on what {@code FilterMemo} keys a
   * pod by (its requests, tolerations, node name, node selector and affinity, host ports), this plugin
   * (its configuration) and that node's {@link NodeInfo}, and its {@link #forCycle} skips a pod only
   * where it would pass every node: then a verdict holds for as long as the NodeInfo does
   * ({@link io.gpufleet.engine.scheduler.FilterMemo}). Not so for a plugin that reads other nodes'
   * pods or cluster-wide state (PodTopologySpread, InterPodAffinity, DynamicResources).
   */
  default boolean nodeLocal() {
    return false;
  }

  /**
   * Whether {@link #filter} passes the node, without building the status a rejection carries: the
   * cycle needs the statuses only when no node passes, and then asks {@link #filter} again.
   */
  default boolean passes(PodInfo pod, NodeInfo node) {
    return filter(pod, node).isSuccess();
  }

  /**
   * Filters a batch in one call: keeps, in order, those of the snapshot indices {@code nodes[0..count)}
   * that {@link #passes} and returns how many it kept. One call per plugin instead of one per node
   * keeps the plugin's own loop monomorphic; a plugin with per-node columns overrides it to read
   * them. Must decide each node exactly as {@link #filter} does.
   */
  default int filterAll(PodInfo pod, ClusterSnapshot snapshot, int[] nodes, int count) {
    int kept = 0;
    for (int j = 0; j < count; j++) {
      int i = nodes[j];
      if (passes(pod, snapshot.get(i))) {
        nodes[kept++] = i;
      }
    }
    return kept;
  }

  /**
   * The statuses of nodes this filter rejects, {@code out[nodes[j]]} for each of {@code nodes[0..count)}:
   * what the cycle reports when no node passed, each node at the first filter that rejected it. The
   * default asks {@link #filter} node by node; a plugin whose rejections repeat across nodes may
   * share one status among them. Must give each node a status equal to {@link #filter}'s.
   */
  default void rejections(PodInfo pod, ClusterSnapshot snapshot, int[] nodes, int count, Status[] out) {
    for (int j = 0; j < count; j++) {
      NodeInfo node = snapshot.get(nodes[j]);
      Status s = filter(pod, node);
      if (s.isSuccess()) {
        throw new IllegalStateException(pluginName() + " passes node " + node.name() + " that its batch call rejected");
      }
      out[nodes[j]] = s;
    }
  }

  /**
   * The PreFilter a plugin with cluster-wide state needs: the filter for this pod's cycle over this
   * snapshot (holding the counts it computed once), or empty when the plugin has nothing to check
   * for the pod (upstream's PreFilter Skip), so no node pays for it. The default is the plugin
   * itself, which needs no state.
   */
  default Optional<FilterPlugin> forCycle(PodInfo pod, ClusterSnapshot snapshot) {
    return Optional.of(this);
  }

  /** The filters of one cycle, in order, without the skipped ones. */
  static FilterPlugin[] forCycle(List<FilterPlugin> filters, PodInfo pod, ClusterSnapshot snapshot) {
    List<FilterPlugin> out = new ArrayList<>(filters.size());
    for (FilterPlugin f : filters) {
      f.forCycle(pod, snapshot).ifPresent(out::add);
    }
    return out.toArray(FilterPlugin[]::new);
  }
}
