package io.gpufleet.model.karpenter;

import java.util.Optional;

/** The reasons a disruption budget can name (reference §1.6). */
public enum DisruptionReason {
  UNDERUTILIZED("Underutilized"),
  EMPTY("Empty"),
  DRIFTED("Drifted");

  private final String wireName;

  DisruptionReason(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  public static Optional<DisruptionReason> fromWire(String s) {
    for (DisruptionReason r : values()) {
      if (r.wireName.equals(s)) {
        return Optional.of(r);
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return wireName;
  }
}
