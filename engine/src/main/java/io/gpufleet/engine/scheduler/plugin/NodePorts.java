package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.ContainerPort;
import io.gpufleet.model.pod.PodSpec;
import java.util.List;
import java.util.Optional;

/**
 * kube-scheduler's NodePorts filter (pkg/scheduler/framework/plugins/nodeports/node_ports.go): a pod
 * whose containers ask for host ports fits only a node where no bound pod holds one of them, by
 * protocol, port and address ({@code fitsPorts}, {@link ContainerPort#conflictsWith}). A pod with no
 * host port skips the plugin (its PreFilter's Skip). The rejection is Unschedulable, not unresolvable:
 * preempting the holder frees the port.
 */
public enum NodePorts implements FilterPlugin {
  INSTANCE;

  /** {@code ErrReason} of node_ports.go. */
  public static final String REASON = "node(s) didn't have free ports for the requested pod ports";

  /** The verdict reads only the ports of the node's own pods. */
  @Override
  public boolean nodeLocal() {
    return true;
  }

  @Override
  public String pluginName() {
    return "NodePorts";
  }

  @Override
  public Optional<FilterPlugin> forCycle(PodInfo pod, ClusterSnapshot snapshot) {
    return asksHostPorts(pod.pod().spec()) ? Optional.of(this) : Optional.empty();
  }

  /**
   * Whether any container asks for a host port: {@code hostPorts()} not empty, without building the
   * list, since every cycle of every pod asks and almost none does.
   */
  public static boolean asksHostPorts(PodSpec spec) {
    return asksHostPorts(spec.initContainers()) || asksHostPorts(spec.containers());
  }

  private static boolean asksHostPorts(List<Container> containers) {
    for (Container c : containers) {
      for (ContainerPort p : c.ports()) {
        if (p.hostPort() > 0) {
          return true;
        }
      }
    }
    return false;
  }

  @Override
  public Status filter(PodInfo pod, NodeInfo node) {
    List<ContainerPort> wanted = pod.pod().spec().hostPorts();
    if (wanted.isEmpty()) {
      return Status.SUCCESS;
    }
    for (PodInfo bound : node.pods()) {
      for (ContainerPort used : bound.pod().spec().hostPorts()) {
        for (ContainerPort w : wanted) {
          if (w.conflictsWith(used)) {
            return Status.unschedulable(pluginName(), REASON);
          }
        }
      }
    }
    return Status.SUCCESS;
  }
}
