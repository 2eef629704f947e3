package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import java.util.Optional;

/** A pod that names a node fits only that node. */
public enum NodeName implements FilterPlugin {
  INSTANCE;

  public static final String REASON = "node(s) didn't match the requested node name";

  /** The verdict reads only the node's name. */
  @Override
  public boolean nodeLocal() {
    return true;
  }

  @Override
  public String pluginName() {
    return "NodeName";
  }

  /** Nothing to check for a pod that names no node, so no node pays for the plugin. */
  @Override
  public Optional<FilterPlugin> forCycle(PodInfo pod, ClusterSnapshot snapshot) {
    return pod.pod().spec().nodeName().isEmpty() ? Optional.empty() : Optional.of(this);
  }

  @Override
  public Status filter(PodInfo pod, NodeInfo node) {
    var wanted = pod.pod().spec().nodeName();
    if (wanted.isEmpty() || wanted.get().equals(node.name())) {
      return Status.SUCCESS;
    }
    return Status.unresolvable(pluginName(), REASON);
  }
}
