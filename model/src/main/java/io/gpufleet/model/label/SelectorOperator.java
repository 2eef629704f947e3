package io.gpufleet.model.label;

import java.util.Optional;

/**
 * Operators of label selector and node selector requirements. {@code Gt} and {@code Lt} exist
 * only for node selectors (node affinity) and compare the label as an integer.
 */
public enum SelectorOperator {
  IN("In"),
  NOT_IN("NotIn"),
  EXISTS("Exists"),
  DOES_NOT_EXIST("DoesNotExist"),
  GT("Gt"),
  LT("Lt");

  private final String wireName;

  SelectorOperator(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  public static Optional<SelectorOperator> fromWire(String s) {
    for (SelectorOperator o : values()) {
      if (o.wireName.equals(s)) {
        return Optional.of(o);
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return wireName;
  }
}
