package io.gpufleet.autoscaler.disruption;

import io.gpufleet.model.karpenter.DisruptionReason;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.wire.WireEnum;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One disruption decision (reference §1.5): the method that found it, its reason, the NodeClaims
 * to remove and the replacements to launch first (none for a delete).
 *
 * @param candidates NodeClaim names
 * @param candidatePrice what the candidates cost per hour together
 * @param replacementPrice what the replacements' cheapest options cost per hour
 * @param approvals the {@code ConsolidationApproved} events a Balanced NodePool's scoring recorded for
 *     it, message by object (the candidate's NodeClaim, or the NodePool for a multi-node move)
 */
public record DisruptionCommand(String id, Method method, DisruptionReason reason, List<String> candidates,
    List<NodeClaim> replacements, double candidatePrice, double replacementPrice, Instant decided,
    Map<String, String> approvals) {

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
    approvals = Map.copyOf(approvals);
  }

  public DisruptionCommand withApprovals(Map<String, String> events) {
    return new DisruptionCommand(id, method, reason, candidates, replacements, candidatePrice, replacementPrice,
        decided, events);
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
