package io.gpufleet.model.cloud;

import io.gpufleet.model.wire.WireEnum;
import java.util.Optional;

/**
 * How an instance is bought: the values of {@code karpenter.sh/capacity-type} (reference §1.2,
 * {@code K:pkg/apis/v1/labels.go}).
 */
public enum CapacityType implements WireEnum {
  RESERVED,
  SPOT,
  ON_DEMAND;

  @Override
  public String wireName() {
    return WireEnum.lowerKebab(this);
  }

  public static Optional<CapacityType> fromWire(String s) {
    return WireEnum.fromWire(CapacityType.class, s);
  }

  @Override
  public String toString() {
    return wireName();
  }
}
