package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;

/** A Filter extension point: may this pod run on this node? */
public interface FilterPlugin {

  /** The plugin's name as in a KubeSchedulerConfiguration. */
  String pluginName();

  Status filter(PodInfo pod, NodeInfo node);
}
