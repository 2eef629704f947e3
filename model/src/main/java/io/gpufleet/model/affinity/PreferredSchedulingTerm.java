package io.gpufleet.model.affinity;

/** A weighted preference (weight 1..100) for nodes matching a term. */
public record PreferredSchedulingTerm(int weight, NodeSelectorTerm preference) {

  /** The record's usual text, written out; part of a pod template's text (see {@link io.gpufleet.model.workload.PodTemplate#toString}). */
  @Override
  public String toString() {
    return new StringBuilder("PreferredSchedulingTerm[weight=").append(weight).append(", preference=")
        .append(preference).append(']').toString();
  }
}
