package io.gpufleet.model.workload;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.pod.PodSpec;

/** The pod template of a workload: labels and annotations of the pods, and their spec. */
public record PodTemplate(Labels labels, Labels annotations, PodSpec spec) {

  /**
   * The record's usual text, written out: a Deployment's pod-template-hash is taken over it (pod
   * names, ReplicaSet names), so it must not change; written by hand because the generated one
   * costs a bootstrap per record class in every CLI call that makes a Deployment's pods.
   */
  @Override
  public String toString() {
    return new StringBuilder("PodTemplate[labels=").append(labels).append(", annotations=").append(annotations)
        .append(", spec=").append(spec).append(']').toString();
  }
}
