package io.gpufleet.queue.api;

import io.gpufleet.model.resource.Quantity;

/**
 * A ClusterQueue's or Cohort's {@code spec.fairSharing} ({@code apis/kueue/v1beta2/fairsharing_types.go}):
 * its weight when competing for unused quota of its cohort, 1 by default; 0 makes its share
 * infinite whenever it borrows.
 */
public record FairSharing(Quantity weight) {

  /** {@code +kubebuilder:default=1}, and {@code defaultWeight} of {@code pkg/cache/scheduler/fair_sharing.go}. */
  public static final FairSharing DEFAULT = new FairSharing(Quantity.of(1));

  public static FairSharing weight(String quantity) {
    return new FairSharing(Quantity.parse(quantity));
  }

  /** {@code parseFairWeight}: the weight as a float64 ({@code AsFloat64Slow}). */
  public double weightValue() {
    return weight.amount().doubleValue();
  }
}
