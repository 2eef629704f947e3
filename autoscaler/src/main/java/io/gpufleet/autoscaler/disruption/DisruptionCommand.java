package io.gpufleet.autoscaler.disruption;

import io.gpufleet.model.karpenter.DisruptionReason;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.wire.WireEnum;
import java.time.Instant;
import java.util.List;

/**
 * One disruption decision (reference §1.5): the method that found it, its reason, the NodeClaims
 * to remove and the replacements to launch first (none for a delete).
 *
 * @param candidates NodeClaim names
 * @param candidatePrice what the candidates cost per hour together
 * @param replacementPrice what the replacements' cheapest options cost per hour
 */
public record DisruptionCommand(String id, Method method, DisruptionReason reason, List<String> candidates,
    List<NodeClaim> replacements, double candidatePrice, double replacementPrice, Instant decided) {

  /**
   * Karpenter's disruption methods, in the order the controller tries them: the wire name is
   * Karpenter's, with the budget reason each counts against and whether it is eventual (may take
   * nodes whose pods block eviction when the NodePool has a {@code terminationGracePeriod}) or
   * graceful ({@code K:pkg/controllers/disruption/types.go} Reason, Class).
   */
  public enum Method implements WireEnum {
    EMPTINESS(DisruptionReason.EMPTY, false),
    DRIFT(DisruptionReason.DRIFTED, true),
    MULTI_NODE_CONSOLIDATION(DisruptionReason.UNDERUTILIZED, false),
    SINGLE_NODE_CONSOLIDATION(DisruptionReason.UNDERUTILIZED, false);

    private final DisruptionReason reason;
    private final boolean eventual;

    Method(DisruptionReason reason, boolean eventual) {
      this.reason = reason;
      this.eventual = eventual;
    }

    public DisruptionReason reason() {
      return reason;
    }

    public boolean eventual() {
      return eventual;
    }

    @Override
    public String toString() {
      return wireName();
    }
  }

  public DisruptionCommand {
    candidates = List.copyOf(candidates);
    replacements = List.copyOf(replacements);
  }

  public boolean isDelete() {
    return replacements.isEmpty();
  }

  /** {@code delete} or {@code replace}, with the candidates and what replaces them, for the run record. */
  public String describe() {
    String what = replacements.isEmpty() ? "delete " + String.join(", ", candidates)
        : "replace " + String.join(", ", candidates) + " with " + String.join(", ",
            replacements.stream().map(c -> c.instanceType().name() + "/" + c.offering().capacityType()).toList());
    return method + " (" + reason + "): " + what;
  }
}
