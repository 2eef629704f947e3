package io.gpufleet.autoscaler.provisioning;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A provisioning round run for a consolidation simulation ({@link Provisioner#simulateWithout}): what
 * {@link ProvisioningPlan} holds, the new claims planned only when {@link #newClaims} is asked.
 */
public final class SimulatedRound {
  private final int claimCount;
  private final Supplier<List<PlannedClaim>> plan;
  private List<PlannedClaim> claims;
  private final Map<String, String> onExisting;
  private final Map<String, String> errors;

  SimulatedRound(int claimCount, Supplier<List<PlannedClaim>> plan, Map<String, String> onExisting,
      Map<String, String> errors) {
    this.claimCount = claimCount;
    this.plan = plan;
    this.onExisting = onExisting;
    this.errors = errors;
  }

  /** How many new claims the round planned: {@code newClaims().size()}. */
  public int claimCount() {
    return claimCount;
  }

  /** The new claims, as {@link ProvisioningPlan#newClaims}. */
  public List<PlannedClaim> newClaims() {
    if (claims == null) {
      claims = List.copyOf(plan.get());
    }
    return claims;
  }

  /** Each pod placed on an existing or in-flight node, by key: the node's name. */
  public Map<String, String> onExisting() {
    return onExisting;
  }

  /** Each pod nothing could host, by key: Karpenter's message. */
  public Map<String, String> errors() {
    return errors;
  }
}
