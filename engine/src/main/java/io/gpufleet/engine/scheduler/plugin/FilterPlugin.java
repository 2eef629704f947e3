package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import java.util.Optional;

/** A Filter extension point: may this pod run on this node? */
public interface FilterPlugin {

  /** The plugin's name as in a KubeSchedulerConfiguration. */
  String pluginName();

  Status filter(PodInfo pod, NodeInfo node);

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
  static FilterPlugin[] forCycle(java.util.List<FilterPlugin> filters, PodInfo pod, ClusterSnapshot snapshot) {
    java.util.List<FilterPlugin> out = new java.util.ArrayList<>(filters.size());
    for (FilterPlugin f : filters) {
      f.forCycle(pod, snapshot).ifPresent(out::add);
    }
    return out.toArray(FilterPlugin[]::new);
  }
}
