package io.gpufleet.queue.api;

import io.gpufleet.model.label.Labels;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A Workload ({@code apis/kueue/v1beta2/workload_types.go}): what Kueue admits for a Job, with its
 * pod sets, priority, the LocalQueue it was submitted to, its creation time (FIFO order), the
 * namespace's labels (for the ClusterQueue's namespaceSelector) and, once admitted, its admission.
 */
public record Workload(String namespace, String name, String queueName, List<PodSet> podSets, int priority,
    Instant creationTime, Labels namespaceLabels, Optional<Admission> admission) {

  public Workload {
    podSets = List.copyOf(podSets);
  }

  public static Workload of(String namespace, String name, String queueName, Instant created, PodSet... podSets) {
    return new Workload(namespace, name, queueName, List.of(podSets), 0, created, Labels.EMPTY, Optional.empty());
  }

  /** {@code namespace/name}, as Kueue's {@code workload.Reference}. */
  public String key() {
    return namespace + "/" + name;
  }

  public Workload withPriority(int p) {
    return new Workload(namespace, name, queueName, podSets, p, creationTime, namespaceLabels, admission);
  }

  public Workload withNamespaceLabels(Labels labels) {
    return new Workload(namespace, name, queueName, podSets, priority, creationTime, labels, admission);
  }

  public Workload admitted(Admission a) {
    return new Workload(namespace, name, queueName, podSets, priority, creationTime, namespaceLabels, Optional.of(a));
  }
}
