package io.gpufleet.engine.scheduler;

import java.util.List;
import java.util.Optional;

/** The scheduler's decision for one pod, as data. */
public sealed interface ScheduleResult {

  /** How many nodes this cycle looked at: the next cycle starts that many nodes further on. */
  int evaluatedNodes();

  /** Bind the pod to {@code node}. {@code ranking} lists the best nodes with their scores when explained. */
  record Scheduled(String node, long score, int feasibleNodes, int evaluatedNodes, List<NodeScore> ranking)
      implements ScheduleResult {
    public Scheduled {
      ranking = List.copyOf(ranking);
    }
  }

  /**
   * No node passed; the pod stays Pending with {@code error.message()}. When preemption found room,
   * {@code nominatedNode} names the node and {@code victims} the keys of the pods to evict there.
   */
  record Unschedulable(FitError error, int evaluatedNodes, Optional<String> nominatedNode, List<String> victims)
      implements ScheduleResult {
    public Unschedulable {
      victims = List.copyOf(victims);
    }

    public Unschedulable(FitError error, int evaluatedNodes) {
      this(error, evaluatedNodes, Optional.empty(), List.of());
    }
  }

  /** A node's total and the weighted contribution of each score plugin. */
  record NodeScore(String node, long total, List<PluginScore> plugins) {
    public NodeScore {
      plugins = List.copyOf(plugins);
    }
  }

  record PluginScore(String plugin, long weightedScore) {}
}
