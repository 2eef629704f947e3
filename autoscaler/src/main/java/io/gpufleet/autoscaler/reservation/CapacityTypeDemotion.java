package io.gpufleet.autoscaler.reservation;

import io.gpufleet.model.cloud.CapacityReservation;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.label.Labels;
import java.util.Optional;

/**
 * The capacity-type controller ({@code A:pkg/controllers/capacityreservation/capacitytype/controller.go}
 * syncCapacityType): an instance EC2 reports as on-demand whose NodeClaim (or Node) is labelled
 * {@code reserved}, because its reservation ended, is relabelled {@code on-demand} and loses the
 * reservation labels. Only reserved to on-demand: Karpenter never promotes.
 */
public final class CapacityTypeDemotion {
  private CapacityTypeDemotion() {}

  /**
   * The labels of a claim or node whose instance EC2 now reports as {@code reported}, demoted; empty
   * when there is nothing to do (the instance is still reserved, or the labels are not {@code reserved}).
   */
  public static Optional<Labels> demoted(Labels labels, CapacityType reported) {
    boolean reserved = labels.get(KarpenterLabels.CAPACITY_TYPE).map(CapacityType.RESERVED.wireName()::equals)
        .orElse(false);
    if (reported != CapacityType.ON_DEMAND || !reserved) {
      return Optional.empty();
    }
    return Optional.of(labels.with(KarpenterLabels.CAPACITY_TYPE, CapacityType.ON_DEMAND.wireName())
        .without(CapacityReservation.ID_LABEL).without(CapacityReservation.TYPE_LABEL));
  }
}
