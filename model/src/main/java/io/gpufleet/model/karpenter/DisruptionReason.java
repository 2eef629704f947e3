package io.gpufleet.model.karpenter;

import io.gpufleet.model.wire.WireEnum;
import java.util.Optional;

/** The reasons a disruption budget can name (reference §1.6). */
public enum DisruptionReason implements WireEnum {
  UNDERUTILIZED,
  EMPTY,
  DRIFTED;

  public static Optional<DisruptionReason> fromWire(String s) {
    return WireEnum.fromWire(DisruptionReason.class, s);
  }

  @Override
  public String toString() {
    return wireName();
  }
}
