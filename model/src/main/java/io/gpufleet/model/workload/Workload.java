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

  /**
   * Which permitted record this is. Code on the CLI's start path switches on this instead of on the
   * sealed type: a switch over an enum is checked for exhaustiveness by javac like a pattern switch
   * but compiles to a table, where each pattern switch makes a class at run time on first use.
   */
  Variant variant();

  /** One constant per permitted record, each returned by that record alone (WorkloadVariantTest). */
  enum Variant { DEPLOYMENT, REPLICA_SET, STATEFUL_SET, JOB, DAEMON_SET }

  /** The same workload with its pod template replaced. */
  Workload withTemplate(PodTemplate template);

  /**
   * The pods it wants at once, what a PodDisruptionBudget over its pods expects: its replicas, a
   * Job's parallelism, one for a DaemonSet.
   */
  default int desiredPods() {
    return switch (variant()) {
      case DEPLOYMENT -> ((Deployment) this).replicas();
      case REPLICA_SET -> ((ReplicaSet) this).replicas();
      case STATEFUL_SET -> ((StatefulSet) this).replicas();
      case JOB -> ((Job) this).parallelism();
      case DAEMON_SET -> 1;
    };
  }

  /**
   * Replicas kept running, replaced when they fail or are evicted; a new template rolls out by its
   * strategy ({@code spec.strategy.type}).
   */
  record Deployment(ObjectMeta meta, int replicas, LabelSelector selector, PodTemplate template,
      IntOrPercent maxSurge, IntOrPercent maxUnavailable, Strategy strategy) implements Workload {
    public static final IntOrPercent DEFAULT_ROLLING = new IntOrPercent.Percent(25);

    /** {@code spec.strategy.type}: RollingUpdate (the default) or Recreate. */
    public enum Strategy { ROLLING_UPDATE, RECREATE }

    /** A Deployment rolling out by RollingUpdate within {@code maxSurge} and {@code maxUnavailable}. */
    public Deployment(ObjectMeta meta, int replicas, LabelSelector selector, PodTemplate template,
        IntOrPercent maxSurge, IntOrPercent maxUnavailable) {
      this(meta, replicas, selector, template, maxSurge, maxUnavailable, Strategy.ROLLING_UPDATE);
    }

    @Override
    public String kind() {
      return "Deployment";
    }

    @Override
    public Variant variant() {
      return Variant.DEPLOYMENT;
    }

    @Override
    public Deployment withTemplate(PodTemplate template) {
      return new Deployment(meta, replicas, selector, template, maxSurge, maxUnavailable, strategy);
    }

    public Deployment withReplicas(int n) {
      return new Deployment(meta, n, selector, template, maxSurge, maxUnavailable, strategy);
    }
  }

  record ReplicaSet(ObjectMeta meta, int replicas, LabelSelector selector, PodTemplate template) implements Workload {
    @Override
    public String kind() {
      return "ReplicaSet";
    }

    @Override
    public Variant variant() {
      return Variant.REPLICA_SET;
    }

    @Override
    public ReplicaSet withTemplate(PodTemplate template) {
      return new ReplicaSet(meta, replicas, selector, template);
    }
  }

  /** Pods named {@code <name>-0..n-1}, started in order. */
  record StatefulSet(ObjectMeta meta, int replicas, LabelSelector selector, PodTemplate template)
      implements Workload {
    @Override
    public String kind() {
      return "StatefulSet";
    }

    @Override
    public Variant variant() {
      return Variant.STATEFUL_SET;
    }

    @Override
    public StatefulSet withTemplate(PodTemplate template) {
      return new StatefulSet(meta, replicas, selector, template);
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

    @Override
    public Variant variant() {
      return Variant.JOB;
    }

    @Override
    public Job withTemplate(PodTemplate template) {
      return new Job(meta, parallelism, completions, selector, template, runFor);
    }
  }

  /** One pod on every node whose taints it tolerates and whose affinity it matches. */
  record DaemonSet(ObjectMeta meta, LabelSelector selector, PodTemplate template) implements Workload {
    @Override
    public String kind() {
      return "DaemonSet";
    }

    @Override
    public Variant variant() {
      return Variant.DAEMON_SET;
    }

    @Override
    public DaemonSet withTemplate(PodTemplate template) {
      return new DaemonSet(meta, selector, template);
    }
  }
}
