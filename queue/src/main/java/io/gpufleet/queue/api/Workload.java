package io.gpufleet.queue.api;

import io.gpufleet.model.label.Labels;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A Workload ({@code apis/kueue/v1beta2/workload_types.go}): what Kueue admits for a Job, with its
 * pod sets, priority, the LocalQueue it was submitted to, its creation time (FIFO order), the
 * namespace's labels (for the ClusterQueue's namespaceSelector) and, once quota is reserved, its
 * admission and when the reservation was made (the QuotaReserved condition's transition time, which
 * orders preemption candidates).
 */
public record Workload(String namespace, String name, String queueName, List<PodSet> podSets, int priority,
    Instant creationTime, Labels namespaceLabels, Optional<Admission> admission, Optional<Instant> quotaReservedAt) {

  public Workload {
    podSets = List.copyOf(podSets);
  }

  /** A pending workload. */
  public Workload(String namespace, String name, String queueName, List<PodSet> podSets, int priority,
      Instant creationTime, Labels namespaceLabels) {
    this(namespace, name, queueName, podSets, priority, creationTime, namespaceLabels, Optional.empty(),
        Optional.empty());
  }

  public static Workload of(String namespace, String name, String queueName, Instant created, PodSet... podSets) {
    return new Workload(namespace, name, queueName, List.of(podSets), 0, created, Labels.EMPTY);
  }

  /** {@code namespace/name}, as Kueue's {@code workload.Reference}. */
  public String key() {
    return namespace + "/" + name;
  }

  public Workload withPriority(int p) {
    return new Workload(namespace, name, queueName, podSets, p, creationTime, namespaceLabels, admission,
        quotaReservedAt);
  }

  public Workload withNamespaceLabels(Labels labels) {
    return new Workload(namespace, name, queueName, podSets, priority, creationTime, labels, admission,
        quotaReservedAt);
  }

  /** This workload with quota reserved by {@code a} at {@code at}. */
  public Workload admitted(Admission a, Instant at) {
    return new Workload(namespace, name, queueName, podSets, priority, creationTime, namespaceLabels, Optional.of(a),
        Optional.of(at));
  }
}
