package io.gpufleet.model.affinity;

import io.gpufleet.model.label.Labels;
import java.util.List;

/** {@code requiredDuringSchedulingIgnoredDuringExecution}: terms ORed. */
public record NodeSelector(List<NodeSelectorTerm> terms) {

  public NodeSelector {
    terms = List.copyOf(terms);
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
