package io.gpufleet.model.workload;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.meta.ObjectMeta;
import java.util.Optional;

/** A PodDisruptionBudget: exactly one of {@code minAvailable} or {@code maxUnavailable}. */
public record PodDisruptionBudget(
    ObjectMeta meta, LabelSelector selector, Optional<IntOrPercent> minAvailable,
    Optional<IntOrPercent> maxUnavailable) {

  /**
   * How many of the selected pods may be disrupted now, given how many are expected (the owner's
   * replicas, or the number matched) and how many are healthy, as the disruption controller computes it.
   */
  public int disruptionsAllowed(int expected, int healthy) {
    int desiredHealthy;
    if (minAvailable.isPresent()) {
      desiredHealthy = minAvailable.get().resolve(expected, true);
    } else if (maxUnavailable.isPresent()) {
      desiredHealthy = expected - maxUnavailable.get().resolve(expected, true);
    } else {
      desiredHealthy = expected; // an empty PDB allows nothing
    }
    return Math.max(0, healthy - Math.max(0, desiredHealthy));
  }
}
