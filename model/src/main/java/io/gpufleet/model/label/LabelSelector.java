package io.gpufleet.model.label;

import java.util.List;
import java.util.Objects;

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

  // equals and hashCode written out, as the record's own would be (RecordMethodsTest): those are
  // linked at their first call by ObjectMethods' bootstrap, which spins method-handle classes that
  // no AOT cache holds, and every schedule compares these.
  @Override
  public boolean equals(Object o) {
    return o instanceof LabelSelector s && Objects.equals(matchLabels, s.matchLabels)
        && Objects.equals(matchExpressions, s.matchExpressions);
  }

  @Override
  public int hashCode() {
    return 31 * Objects.hashCode(matchLabels) + Objects.hashCode(matchExpressions);
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
