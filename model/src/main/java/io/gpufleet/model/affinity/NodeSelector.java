package io.gpufleet.model.affinity;

import io.gpufleet.model.label.Labels;
import java.util.List;

/** {@code requiredDuringSchedulingIgnoredDuringExecution}: terms ORed. */
public record NodeSelector(List<NodeSelectorTerm> terms) {

  public NodeSelector {
    terms = List.copyOf(terms);
  }

  /** The record's usual text, written out; part of a pod template's text (see {@link io.gpufleet.model.workload.PodTemplate#toString}). */
  @Override
  public String toString() {
    return new StringBuilder("NodeSelector[terms=").append(terms).append(']').toString();
  }

  public boolean matches(String nodeName, Labels nodeLabels) {
    for (NodeSelectorTerm t : terms) {
      if (t.matches(nodeName, nodeLabels)) {
        return true;
      }
    }
    return false;
  }
}
