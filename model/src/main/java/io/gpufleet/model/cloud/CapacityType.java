package io.gpufleet.model.cloud;

import java.util.Optional;

/**
 * How an instance is bought: the values of {@code karpenter.sh/capacity-type} (reference §1.2,
 * {@code K:pkg/apis/v1/labels.go}).
 */
public enum CapacityType {
  RESERVED("reserved"),
  SPOT("spot"),
  ON_DEMAND("on-demand");

  private final String wireName;

  CapacityType(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  public static Optional<CapacityType> fromWire(String s) {
    for (CapacityType c : values()) {
      if (c.wireName.equals(s)) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return wireName;
  }
}
