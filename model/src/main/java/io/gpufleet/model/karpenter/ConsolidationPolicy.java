package io.gpufleet.model.karpenter;

import io.gpufleet.model.wire.WireEnum;
import java.util.Optional;

/**
 * {@code spec.disruption.consolidationPolicy} (reference §1.1, §1.5). {@code Balanced} exists
 * since Karpenter v1.14.0.
 */
public enum ConsolidationPolicy implements WireEnum {
  WHEN_EMPTY,
  WHEN_EMPTY_OR_UNDERUTILIZED,
  BALANCED;

  public static Optional<ConsolidationPolicy> fromWire(String s) {
    return WireEnum.fromWire(ConsolidationPolicy.class, s);
  }

  @Override
  public String toString() {
    return wireName();
  }
}
