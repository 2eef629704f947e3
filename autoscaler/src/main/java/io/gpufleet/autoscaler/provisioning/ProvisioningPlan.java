package io.gpufleet.autoscaler.provisioning;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one provisioning simulation: new NodeClaims to launch, pods that fit on existing or
 * in-flight nodes (Karpenter nominates them there), and pods nothing can host with Karpenter's
 * message for each.
 *
 * @param draSized under gpufleet's {@code draRequests: allocate}, each pod with DRA claims that was
 *     placed, and how its claims were sized (Karpenter itself does not place such pods)
 */
public record ProvisioningPlan(List<PlannedClaim> newClaims, Map<String, String> onExisting,
    Map<String, String> errors, Map<String, String> draSized) {

  public ProvisioningPlan {
    newClaims = List.copyOf(newClaims);
    onExisting = Collections.unmodifiableMap(new LinkedHashMap<>(onExisting));
    errors = Collections.unmodifiableMap(new LinkedHashMap<>(errors));
    draSized = Collections.unmodifiableMap(new LinkedHashMap<>(draSized));
  }

  /** True when every pod found a place. */
  public boolean allScheduled() {
    return errors.isEmpty();
  }
}
