package io.gpufleet.model.workload;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import java.util.Optional;

/**
 * A PodDisruptionBudget: exactly one of {@code minAvailable} or {@code maxUnavailable}. Its selector
 * is absent when the object has none ({@code spec.selector} null), which policy/v1 tells apart from
 * an empty one ({@code {}}).
 */
public record PodDisruptionBudget(
    ObjectMeta meta, Optional<LabelSelector> selector, Optional<IntOrPercent> minAvailable,
    Optional<IntOrPercent> maxUnavailable) {

  /** A budget with this selector given. */
  public PodDisruptionBudget(ObjectMeta meta, LabelSelector selector, Optional<IntOrPercent> minAvailable,
      Optional<IntOrPercent> maxUnavailable) {
    this(meta, Optional.of(selector), minAvailable, maxUnavailable);
  }

  /**
   * Whether the budget covers pods of this namespace with these labels: its own namespace and its
   * selector matching them. A null selector matches no pod and an empty one ({@code {}}) every pod
   * of the namespace, labelled or not ({@code k8s.io/api/policy/v1/types.go}
   * PodDisruptionBudgetSpec.Selector). The disruption controller, the Eviction API (since
   * kubernetes/kubernetes#119732), kube-scheduler's preemption (since #141785) and Karpenter
   * ({@code K:pkg/utils/pdb/pdb.go} newPdb) all read it so, through
   * {@code metav1.LabelSelectorAsSelector}.
   */
  public boolean selects(String namespace, Labels labels) {
    return meta.namespace().equals(namespace) && selector.isPresent() && selector.get().matches(labels);
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
