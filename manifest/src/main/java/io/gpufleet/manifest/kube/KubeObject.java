package io.gpufleet.manifest.kube;

import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.model.dra.DraObject;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.pod.PreemptionPolicy;
import io.gpufleet.model.pod.RuntimeClass;
import io.gpufleet.model.workload.PodDisruptionBudget;
import io.gpufleet.model.workload.Workload;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

/** One object read from a manifest, with where it was written. */
public sealed interface KubeObject {

  Location location();

  String kind();

  String name();

  /**
   * A {@code status.startTime} as a dump records it (when the kubelet admitted a pod, when the Job
   * controller started a Job), with the time of the snapshot it came in: its {@code List}'s
   * {@code gpufleet.io/imported-at}, where {@code gpufleet import} wrote one.
   */
  record StartTime(Instant at, Optional<Instant> snapshot, Location location) {}

  record NodeObject(Node node, Location location) implements KubeObject {
    @Override
    public String kind() {
      return "Node";
    }

    @Override
    public String name() {
      return node.name();
    }
  }

  /**
   * A pod, with {@code status.phase} when the manifest records one (a dump of a cluster): a pod
   * with a status is state, not a request; a finished one (Succeeded, Failed) occupies nothing.
   */
  /**
   * A pod; {@code finishedAt} is the latest {@code finishedAt} of its terminated containers, where its
   * status records them (a completed pod of a dump: with {@code started}, how long it ran).
   */
  record PodObject(Pod pod, Location location, Optional<Phase> phase, PriorityWritten written,
      Optional<StartTime> started, Optional<Instant> finishedAt) implements KubeObject {

    /** A pod with no container that finished. */
    public PodObject(Pod pod, Location location, Optional<Phase> phase, PriorityWritten written,
        Optional<StartTime> started) {
      this(pod, location, phase, written, started, Optional.empty());
    }

    /** A pod with no {@code status.startTime}. */
    public PodObject(Pod pod, Location location, Optional<Phase> phase, PriorityWritten written) {
      this(pod, location, phase, written, Optional.empty());
    }

    /** A pod whose manifest's written priority fields are inferred from its spec ({@link PriorityWritten#inferred}). */
    public PodObject(Pod pod, Location location, Optional<Phase> phase) {
      this(pod, location, phase, PriorityWritten.inferred(pod.spec()));
    }

    /** The same object with the pod admission made of it. */
    public PodObject withPod(Pod admitted) {
      return new PodObject(admitted, location, phase, written, started, finishedAt);
    }

    /** {@code status.phase}, as the API server writes it. */
    public enum Phase {
      PENDING("Pending"), RUNNING("Running"), SUCCEEDED("Succeeded"), FAILED("Failed"), UNKNOWN("Unknown");

      private final String wire;

      Phase(String wire) {
        this.wire = wire;
      }

      public String wire() {
        return wire;
      }

      public static Optional<Phase> fromWire(String s) {
        return Arrays.stream(values()).filter(p -> p.wire.equals(s)).findFirst();
      }
    }

    /** A pod as written in a request: no status. */
    public PodObject(Pod pod, Location location) {
      this(pod, location, Optional.empty());
    }

    /** Succeeded or Failed: its containers have exited; it holds no resources and is not run again. */
    public boolean finished() {
      return phase.filter(p -> p == Phase.SUCCEEDED || p == Phase.FAILED).isPresent();
    }

    @Override
    public String kind() {
      return "Pod";
    }

    @Override
    public String name() {
      return pod.name();
    }
  }

  /**
   * A workload; {@code written}: its pod template's written priority fields; {@code started}: a Job's
   * {@code status.startTime}, when a dump records it.
   */
  record WorkloadObject(Workload workload, Location location, PriorityWritten written, Optional<StartTime> started)
      implements KubeObject {

    /** A workload with no recorded start. */
    public WorkloadObject(Workload workload, Location location, PriorityWritten written) {
      this(workload, location, written, Optional.empty());
    }

    /** The same object with the workload admission made of it. */
    public WorkloadObject withWorkload(Workload admitted) {
      return new WorkloadObject(admitted, location, written, started);
    }

    /** A workload whose template's written priority fields are inferred from its spec ({@link PriorityWritten#inferred}). */
    public WorkloadObject(Workload workload, Location location) {
      this(workload, location, PriorityWritten.inferred(workload.template().spec()));
    }

    @Override
    public String kind() {
      return workload.kind();
    }

    @Override
    public String name() {
      return workload.name();
    }
  }

  record PdbObject(PodDisruptionBudget pdb, Location location) implements KubeObject {
    @Override
    public String kind() {
      return "PodDisruptionBudget";
    }

    @Override
    public String name() {
      return pdb.meta().name();
    }
  }

  /** A ConfigMap's string data; each value's cursor is kept so embedded YAML can report its own lines. */
  record ConfigMapObject(ObjectMeta meta, Map<String, String> data, Map<String, Cursor> dataCursors, Location location)
      implements KubeObject {
    @Override
    public String kind() {
      return "ConfigMap";
    }

    @Override
    public String name() {
      return meta.name();
    }
  }

  /**
   * {@code scheduling.k8s.io/v1 PriorityClass}: the value and preemption policy a pod naming it gets
   * ({@code preemptionPolicy} defaults to PreemptLowerPriority, as the API's defaulting sets it).
   */
  record PriorityClassObject(String name, int value, boolean globalDefault,
      PreemptionPolicy preemptionPolicy, Location location) implements KubeObject {
    @Override
    public String kind() {
      return "PriorityClass";
    }
  }

  /**
   * A {@code v1 Namespace} with its own labels; the API server adds {@code kubernetes.io/metadata.name}
   * ({@link io.gpufleet.model.meta.Namespaces#of}).
   */
  record NamespaceObject(String name, Labels labels, Location location) implements KubeObject {
    @Override
    public String kind() {
      return "Namespace";
    }
  }

  /** A {@code node.k8s.io/v1 RuntimeClass}, which the RuntimeClass admission plugin applies to pods naming it. */
  record RuntimeClassObject(RuntimeClass runtimeClass, Location location) implements KubeObject {
    @Override
    public String kind() {
      return "RuntimeClass";
    }

    @Override
    public String name() {
      return runtimeClass.name();
    }
  }

  /** A {@code resource.k8s.io/v1} object: device class, claim, claim template or slice. */
  record ResourceObject(DraObject value, Location location) implements KubeObject {
    @Override
    public String kind() {
      return value.kind();
    }

    @Override
    public String name() {
      return value.name();
    }
  }

  /**
   * A kind the core decoder does not know; other readers (Karpenter NodePools, scenarios) decode
   * it from the cursor.
   */
  record OtherObject(String apiVersion, String kind, String name, Cursor cursor, Location location)
      implements KubeObject {}

  /**
   * Which of the pod spec's {@code priority} and {@code preemptionPolicy} the manifest wrote. Both are
   * pointers upstream, nil until the Priority admission plugin sets them, and admission refuses a
   * written value that differs from the one it computes; the twin's spec holds 0 and
   * PreemptLowerPriority alike for "absent" and "written as the default", so the decoder records
   * what was written.
   */
  record PriorityWritten(boolean priority, boolean preemptionPolicy) {

    /**
     * For an object not read from a manifest: a non-zero priority and a Never policy were written,
     * as nothing else could have set them before admission.
     */
    public static PriorityWritten inferred(PodSpec spec) {
      return new PriorityWritten(spec.priority() != 0,
          spec.preemptionPolicy() == PreemptionPolicy.NEVER);
    }
  }
}
