package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Tolerations;
import java.util.Optional;

/** Cordoned nodes take only pods that tolerate {@code node.kubernetes.io/unschedulable:NoSchedule}. */
public enum NodeUnschedulable implements FilterPlugin {
  INSTANCE;

  public static final String REASON = "node(s) were unschedulable";
  static final Taint UNSCHEDULABLE_TAINT = Taint.of("node.kubernetes.io/unschedulable", "", TaintEffect.NO_SCHEDULE);

  /** The verdict reads only the node's cordon. */
  @Override
  public boolean nodeLocal() {
    return true;
  }

  @Override
  public String pluginName() {
    return "NodeUnschedulable";
  }

  /** Nothing to check when no node is cordoned or the pod tolerates the cordon: no node pays for the plugin. */
  @Override
  public Optional<FilterPlugin> forCycle(PodInfo pod, ClusterSnapshot snapshot) {
    return !snapshot.anyNodeUnschedulable() || Tolerations.tolerates(pod.pod().spec().tolerations(), UNSCHEDULABLE_TAINT)
        ? Optional.empty() : Optional.of(this);
  }

  @Override
  public Status filter(PodInfo pod, NodeInfo node) {
    if (!node.node().unschedulable()) {
      return Status.SUCCESS;
    }
    if (Tolerations.tolerates(pod.pod().spec().tolerations(), UNSCHEDULABLE_TAINT)) {
      return Status.SUCCESS;
    }
    return Status.unresolvable(pluginName(), REASON);
  }
}
