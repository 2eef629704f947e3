package io.gpufleet.model.affinity;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import java.util.List;

/**
 * One term of a node selector: expressions on labels and on fields ({@code metadata.name} only),
 * ANDed. A term with neither matches no node, as in kube-scheduler.
 */
public record NodeSelectorTerm(List<Requirement> matchExpressions, List<Requirement> matchFields) {

  public NodeSelectorTerm {
    matchExpressions = List.copyOf(matchExpressions);
    matchFields = List.copyOf(matchFields);
  }

  /** The record's usual text, written out; part of a pod template's text (see {@link io.gpufleet.model.workload.PodTemplate#toString}). */
  @Override
  public String toString() {
    return new StringBuilder("NodeSelectorTerm[matchExpressions=").append(matchExpressions).append(", matchFields=")
        .append(matchFields).append(']').toString();
  }

  public static NodeSelectorTerm of(Requirement... expressions) {
    return new NodeSelectorTerm(List.of(expressions), List.of());
  }

  public boolean matches(String nodeName, Labels nodeLabels) {
    if (matchExpressions.isEmpty() && matchFields.isEmpty()) {
      return false;
    }
    for (Requirement r : matchExpressions) {
      if (!r.matches(nodeLabels)) {
        return false;
      }
    }
    if (!matchFields.isEmpty()) {
      Labels fields = Labels.of("metadata.name", nodeName);
      for (Requirement r : matchFields) {
        if (!r.matches(fields)) {
          return false;
        }
      }
    }
    return true;
  }
}
