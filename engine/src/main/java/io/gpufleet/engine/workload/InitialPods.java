package io.gpufleet.engine.workload;

import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The pods a set of workloads has created once its controllers have caught up with a fixed set of
 * nodes: a daemon pod per eligible node for each DaemonSet (first, as their controller reacts to
 * nodes), then each workload's replicas in the order given. Jobs run {@code min(parallelism,
 * completions)} pods at once.
 */
public final class InitialPods {
  private InitialPods() {}

  public static List<Pod> of(List<Workload> workloads, List<Node> nodes, RandomGenerator random) {
    List<Pod> pods = new ArrayList<>();
    for (Workload w : workloads) {
      if (w instanceof Workload.DaemonSet ds) {
        for (Node n : nodes) {
          if (PodFactory.shouldRunOn(ds, n)) {
            pods.add(PodFactory.daemonPod(ds, n.name(), random));
          }
        }
      }
    }
    for (Workload w : workloads) {
      int count = switch (w) {
        case Workload.Deployment d -> d.replicas();
        case Workload.ReplicaSet r -> r.replicas();
        case Workload.StatefulSet s -> s.replicas();
        case Workload.Job j -> Math.min(j.parallelism(), j.completions());
        case Workload.DaemonSet ds -> 0;
      };
      for (int i = 0; i < count; i++) {
        pods.add(PodFactory.pod(w, i, random));
      }
    }
    return pods;
  }
}
