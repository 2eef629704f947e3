package io.gpufleet.model.pod;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.wire.WireEnum;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One entry of a pod's {@code spec.topologySpreadConstraints}, as the API defines it ({@code
 * k8s.io/api/core/v1} TopologySpreadConstraint). An absent {@code labelSelector} is kept absent: it
 * selects no pod, where an empty one selects every pod. The node inclusion policies hold the value
 * written, or the API's meaning of an absent one (nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore).
 */
public record TopologySpreadConstraint(
    int maxSkew,
    String topologyKey,
    WhenUnsatisfiable whenUnsatisfiable,
    Optional<LabelSelector> labelSelector,
    OptionalInt minDomains,
    NodeInclusionPolicy nodeAffinityPolicy,
    NodeInclusionPolicy nodeTaintsPolicy,
    List<String> matchLabelKeys) {

  /** What the scheduler does with a pod that cannot satisfy the constraint. */
  public enum WhenUnsatisfiable implements WireEnum {
    /** A hard constraint: PodTopologySpread's Filter. */
    DO_NOT_SCHEDULE,
    /** A soft constraint: PodTopologySpread's Score. */
    SCHEDULE_ANYWAY
  }

  /** Whether nodes the pod could not land on (by affinity, or by untolerated taints) count in the skew. */
  public enum NodeInclusionPolicy implements WireEnum {
    HONOR,
    IGNORE
  }

  public TopologySpreadConstraint {
    Objects.requireNonNull(topologyKey, "topologyKey");
    Objects.requireNonNull(whenUnsatisfiable, "whenUnsatisfiable");
    labelSelector = labelSelector == null ? Optional.empty() : labelSelector;
    minDomains = minDomains == null ? OptionalInt.empty() : minDomains;
    nodeAffinityPolicy = nodeAffinityPolicy == null ? NodeInclusionPolicy.HONOR : nodeAffinityPolicy;
    nodeTaintsPolicy = nodeTaintsPolicy == null ? NodeInclusionPolicy.IGNORE : nodeTaintsPolicy;
    matchLabelKeys = List.copyOf(matchLabelKeys);
  }

  /** A constraint with every optional field at the API's default. */
  public static TopologySpreadConstraint of(int maxSkew, String topologyKey, WhenUnsatisfiable when,
      LabelSelector selector) {
    return new TopologySpreadConstraint(maxSkew, topologyKey, when, Optional.ofNullable(selector),
        OptionalInt.empty(), null, null, List.of());
  }

  public boolean hard() {
    return whenUnsatisfiable == WhenUnsatisfiable.DO_NOT_SCHEDULE;
  }
}
