package io.gpufleet.model.label;

import java.util.List;

/**
 * A {@code metav1.LabelSelector}: {@code matchLabels} and {@code matchExpressions}, all ANDed.
 * An empty selector matches everything; a null one (absent) is modelled by the caller.
 */
public record LabelSelector(Labels matchLabels, List<Requirement> matchExpressions) {

  public static final LabelSelector EVERYTHING = new LabelSelector(Labels.EMPTY, List.of());

  public LabelSelector {
    matchExpressions = List.copyOf(matchExpressions);
  }

  public static LabelSelector matching(Labels labels) {
    return new LabelSelector(labels, List.of());
  }

  public boolean isEmpty() {
    return matchLabels.isEmpty() && matchExpressions.isEmpty();
  }

  public boolean matches(Labels labels) {
    if (!labels.containsAll(matchLabels)) {
      return false;
    }
    for (Requirement r : matchExpressions) {
      if (!r.matches(labels)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder(matchLabels.toString());
    for (Requirement r : matchExpressions) {
      if (!b.isEmpty()) {
        b.append(',');
      }
      b.append(r);
    }
    return b.toString();
  }
}
