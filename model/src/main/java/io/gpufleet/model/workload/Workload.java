package io.gpufleet.model.workload;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.meta.ObjectMeta;
import java.time.Duration;
import java.util.Optional;

/**
 * A controller that produces pods from a template. Sealed so every consumer handles each kind:
 * the simulator decides how many pods each wants and when they finish.
 */
public sealed interface Workload {

  ObjectMeta meta();

  LabelSelector selector();

  PodTemplate template();

  /** The kind, as in {@code kind:}. */
  String kind();

  default String name() {
    return meta().name();
  }

  /** Replicas kept running, replaced when they fail or are evicted. */
  record Deployment(ObjectMeta meta, int replicas, LabelSelector selector, PodTemplate template,
      IntOrPercent maxSurge, IntOrPercent maxUnavailable) implements Workload {
    public static final IntOrPercent DEFAULT_ROLLING = new IntOrPercent.Percent(25);

    @Override
    public String kind() {
      return "Deployment";
    }

    public Deployment withReplicas(int n) {
      return new Deployment(meta, n, selector, template, maxSurge, maxUnavailable);
    }
  }

  record ReplicaSet(ObjectMeta meta, int replicas, LabelSelector selector, PodTemplate template) implements Workload {
    @Override
    public String kind() {
      return "ReplicaSet";
    }
  }

  /** Pods named {@code <name>-0..n-1}, started in order. */
  record StatefulSet(ObjectMeta meta, int replicas, LabelSelector selector, PodTemplate template)
      implements Workload {
    @Override
    public String kind() {
      return "StatefulSet";
    }
  }

  /**
   * Runs pods to completion. {@code runFor} is gpufleet's own annotation of how long each pod runs
   * ({@code gpufleet.io/run-for}), since a manifest cannot say so.
   */
  record Job(ObjectMeta meta, int parallelism, int completions, LabelSelector selector, PodTemplate template,
      Optional<Duration> runFor) implements Workload {
    @Override
    public String kind() {
      return "Job";
    }
  }

  /** One pod on every node whose taints it tolerates and whose affinity it matches. */
  record DaemonSet(ObjectMeta meta, LabelSelector selector, PodTemplate template) implements Workload {
    @Override
    public String kind() {
      return "DaemonSet";
    }
  }
}
