package io.gpufleet.model.workload;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.pod.PodSpec;

/**
 * The pod template of a workload: labels and annotations of the pods, and their spec. {@code spec} is
 * what the workload's pods get, defaulted and admitted as the API server admits each pod the
 * controller creates; {@code stored} is the template as the API server stores it (decoded, before the
 * admission that acts on pods), which a Deployment's pod-template-hash is taken over, as the
 * deployment controller's {@code ComputeHash} hashes the stored template.
 */
public record PodTemplate(Labels labels, Labels annotations, PodSpec spec, PodSpec stored) {

  public PodTemplate {
    stored = stored == null ? spec : stored;
  }

  /** A template whose pods get the spec as written. */
  public PodTemplate(Labels labels, Labels annotations, PodSpec spec) {
    this(labels, annotations, spec, spec);
  }

  /** The same stored template with its pods getting {@code admitted}. */
  public PodTemplate withSpec(PodSpec admitted) {
    return new PodTemplate(labels, annotations, admitted, stored);
  }

  /**
   * The stored template's text, written out: a Deployment's pod-template-hash is taken over it (pod
   * names, ReplicaSet names), so it must not change; written by hand because the generated one
   * costs a bootstrap per record class in every CLI call that makes a Deployment's pods. It reads as
   * the record's usual text of {@code (labels, annotations, stored)}.
   */
  @Override
  public String toString() {
    return new StringBuilder("PodTemplate[labels=").append(labels).append(", annotations=").append(annotations)
        .append(", spec=").append(stored).append(']').toString();
  }
}
