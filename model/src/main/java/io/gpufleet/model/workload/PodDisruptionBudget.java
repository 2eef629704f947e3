package io.gpufleet.model.workload;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import java.util.Optional;

/** A PodDisruptionBudget: exactly one of {@code minAvailable} or {@code maxUnavailable}. */
public record PodDisruptionBudget(
    ObjectMeta meta, LabelSelector selector, Optional<IntOrPercent> minAvailable,
    Optional<IntOrPercent> maxUnavailable) {

  /**
   * Whether the budget covers pods of this namespace with these labels: its own namespace, and its
   * selector matching them; an empty selector is taken to select no pod.
   */
  public boolean selects(String namespace, Labels labels) {
    return meta.namespace().equals(namespace) && !selector.isEmpty() && selector.matches(labels);
  }

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
