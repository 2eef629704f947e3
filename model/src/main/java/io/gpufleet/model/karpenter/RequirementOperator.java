package io.gpufleet.model.karpenter;

import io.gpufleet.model.wire.WireEnum;
import java.util.Optional;

/**
 * Operators of NodePool requirements: the node-selector ones plus {@code Gte} and {@code Lte},
 * which Karpenter added in v1.10.0 (reference §1.1).
 */
public enum RequirementOperator implements WireEnum {
  IN,
  NOT_IN,
  EXISTS,
  DOES_NOT_EXIST,
  GT,
  LT,
  GTE,
  LTE;

  public boolean isNumeric() {
    return this == GT || this == LT || this == GTE || this == LTE;
  }

  public static Optional<RequirementOperator> fromWire(String s) {
    return WireEnum.fromWire(RequirementOperator.class, s);
  }

  @Override
  public String toString() {
    return wireName();
  }
}
