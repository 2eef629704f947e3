package io.gpufleet.autoscaler.disruption;

/**
 * Why consolidation leaves a node, as the Karpenter event that says so: {@code DisruptionBlocked}
 * when the node is no disruption candidate at all (NewCandidate, {@code K:pkg/controllers/disruption/types.go}),
 * else {@code Unconsolidatable} ({@code K:pkg/controllers/disruption/consolidation.go}).
 */
public record ConsolidationRefusal(String reason, String message) {
  public static final String UNCONSOLIDATABLE = "Unconsolidatable";
  public static final String DISRUPTION_BLOCKED = "DisruptionBlocked";

  static ConsolidationRefusal unconsolidatable(String message) {
    return new ConsolidationRefusal(UNCONSOLIDATABLE, message);
  }

  static ConsolidationRefusal blocked(String message) {
    return new ConsolidationRefusal(DISRUPTION_BLOCKED, message);
  }

  /** As the run record writes a Karpenter event: {@code <reason>: <message>}. */
  @Override
  public String toString() {
    return reason + ": " + message;
  }
}
