package io.gpufleet.model.karpenter;

import java.util.Optional;

/**
 * {@code spec.disruption.consolidationPolicy} (reference §1.1, §1.5). {@code Balanced} exists
 * since Karpenter v1.14.0.
 */
public enum ConsolidationPolicy {
  WHEN_EMPTY("WhenEmpty"),
  WHEN_EMPTY_OR_UNDERUTILIZED("WhenEmptyOrUnderutilized"),
  BALANCED("Balanced");

  private final String wireName;

  ConsolidationPolicy(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  public static Optional<ConsolidationPolicy> fromWire(String s) {
    for (ConsolidationPolicy p : values()) {
      if (p.wireName.equals(s)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return wireName;
  }
}
