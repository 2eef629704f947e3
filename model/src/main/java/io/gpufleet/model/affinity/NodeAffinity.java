package io.gpufleet.model.affinity;

import io.gpufleet.model.label.Labels;
import java.util.List;
import java.util.Optional;

/** A pod's node affinity: an optional hard requirement and weighted preferences. */
public record NodeAffinity(Optional<NodeSelector> required, List<PreferredSchedulingTerm> preferred) {

  public static final NodeAffinity NONE = new NodeAffinity(Optional.empty(), List.of());

  public NodeAffinity {
    preferred = List.copyOf(preferred);
  }

  /** The record's usual text, written out; part of a pod template's text (see {@link io.gpufleet.model.workload.PodTemplate#toString}). */
  @Override
  public String toString() {
    return new StringBuilder("NodeAffinity[required=").append(required).append(", preferred=").append(preferred)
        .append(']').toString();
  }

  public static NodeAffinity requiring(NodeSelectorTerm... terms) {
    return new NodeAffinity(Optional.of(new NodeSelector(List.of(terms))), List.of());
  }

  public boolean requiredMatches(String nodeName, Labels nodeLabels) {
    return required.map(s -> s.matches(nodeName, nodeLabels)).orElse(true);
  }

  /** Sum of the weights of the preferred terms the node matches. */
  public long preferenceScore(String nodeName, Labels nodeLabels) {
    long sum = 0;
    for (PreferredSchedulingTerm p : preferred) {
      if (p.preference().matches(nodeName, nodeLabels)) {
        sum += p.weight();
      }
    }
    return sum;
  }
}
