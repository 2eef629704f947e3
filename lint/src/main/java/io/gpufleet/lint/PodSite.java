package io.gpufleet.lint;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.pod.PodRequests;
import java.util.Optional;

/**
 * A place a pod spec is written: a Pod's {@code spec} or a workload's {@code spec.template.spec},
 * with the pod labels and annotations it carries and how many pods it stands for. Rules about pods
 * look at these, so a Deployment is judged once, not once per replica.
 *
 * @param owner     the Pod or workload the spec is written in
 * @param specPath  {@code spec} or {@code spec.template.spec}: prefix of every field path
 * @param kind      what the pods are for: a long-running service, a batch job, a per-node daemon, a bare pod
 * @param replicas  the pods it stands for (1 for a Pod, a Job's parallelism)
 */
public record PodSite(Located<?> owner, String specPath, PodSpec spec, Labels labels, Labels annotations,
    Labels ownerAnnotations, String namespace, Kind kind, int replicas) {

  public enum Kind { SERVICE, BATCH, DAEMON, POD }

  /** The GPU-like resources (whole GPUs, shared replicas, MIG slices) one pod asks for. */
  public boolean requestsGpu() {
    return PodRequests.of(spec).quantities().entrySet().stream()
        .anyMatch(e -> e.getKey().isNvidiaGpuLike() && e.getValue().signum() > 0);
  }

  /**
   * A gpufleet annotation on the pod template, else on the owning object, with the field path it
   * was read from (for findings that point at it).
   */
  public Optional<Declared> declared(String annotation) {
    String templatePrefix = specPath.equals("spec") ? "metadata" : "spec.template.metadata";
    Optional<String> v = annotations.get(annotation);
    if (v.isPresent()) {
      return Optional.of(new Declared(v.get(), templatePrefix + ".annotations[" + annotation + "]"));
    }
    return ownerAnnotations.get(annotation).map(s -> new Declared(s, "metadata.annotations[" + annotation + "]"));
  }

  /** A declared value and the field it was declared at. */
  public record Declared(String value, String field) {}

  /** {@code specPath + "." + rest}. */
  public String field(String rest) {
    return specPath + "." + rest;
  }
}
