package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.requirement.Requirements;
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
  private final Requirements firstRequirements;
  private List<PlannedClaim> claims;
  private final Map<String, String> onExisting;
  private final Map<String, String> errors;
  private final boolean failedFirst;

  SimulatedRound(int claimCount, Requirements firstRequirements, Supplier<List<PlannedClaim>> plan,
      Map<String, String> onExisting, Map<String, String> errors, boolean failedFirst) {
    this.claimCount = claimCount;
    this.firstRequirements = firstRequirements;
    this.plan = plan;
    this.onExisting = onExisting;
    this.errors = errors;
    this.failedFirst = failedFirst;
  }

  /** A round stopped once its answer was settled ({@link ProvisioningRound.Settled}): no claims to read. */
  SimulatedRound(Map<String, String> onExisting, Map<String, String> errors, boolean failedFirst) {
    this(-1, null, null, onExisting, errors, failedFirst);
  }

  /**
   * Whether a pod failed in the round's first pass over the queue. When none did, each pod was placed by
   * one scan of the nodes in the round's order, on the first that took it ({@link #onExisting}), or on a
   * claim after passing over every node.
   */
  public boolean failedFirstPass() {
    return failedFirst;
  }

  /**
   * Whether the round stopped early: every pod that must schedule was placed and one of the
   * candidates' on a node it may not rely on; or, for a caller that reads no reason, its refusal was
   * settled otherwise ({@link Provisioner#simulateWithout}). Then only {@link #onExisting} and
   * {@link #errors} hold, as far as the round went.
   */
  public boolean settled() {
    return claimCount < 0;
  }

  /** How many new claims the round planned: {@code newClaims().size()}. */
  public int claimCount() {
    if (settled()) {
      throw new IllegalStateException("the round stopped before planning every claim");
    }
    return claimCount;
  }

  /** The first new claim's requirements, {@code newClaims().getFirst().requirements()}, without planning the claims. */
  public Requirements firstRequirements() {
    if (claimCount <= 0) {
      throw new IllegalStateException("no new claims");
    }
    return firstRequirements;
  }

  /** The new claims, as {@link ProvisioningPlan#newClaims}. */
  public List<PlannedClaim> newClaims() {
    if (settled()) {
      throw new IllegalStateException("the round stopped before planning every claim");
    }
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
