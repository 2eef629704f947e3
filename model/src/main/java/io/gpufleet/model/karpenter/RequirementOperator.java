package io.gpufleet.model.karpenter;

import java.util.Optional;

/**
 * Operators of NodePool requirements: the node-selector ones plus {@code Gte} and {@code Lte},
 * which Karpenter added in v1.10.0 (reference §1.1).
 */
public enum RequirementOperator {
  IN("In"),
  NOT_IN("NotIn"),
  EXISTS("Exists"),
  DOES_NOT_EXIST("DoesNotExist"),
  GT("Gt"),
  LT("Lt"),
  GTE("Gte"),
  LTE("Lte");

  private final String wireName;

  RequirementOperator(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  public boolean isNumeric() {
    return this == GT || this == LT || this == GTE || this == LTE;
  }

  public static Optional<RequirementOperator> fromWire(String s) {
    for (RequirementOperator o : values()) {
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
