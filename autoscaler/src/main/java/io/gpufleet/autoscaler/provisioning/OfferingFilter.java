package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.requirement.Requirements;
import io.gpufleet.autoscaler.requirement.ValueSet;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceLabels;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.karpenter.KarpenterLabels;
import java.time.Instant;
import java.util.List;

/**
 * Which offerings of an instance type a set of requirements admits: its zone and capacity-type
 * requirements, and the offering not marked unavailable now. Provisioning, launch and
 * consolidation's price check all ask it, so they agree on what can be bought.
 *
 * @param zones    the zone requirement, or null for none
 * @param capacity the capacity-type requirement, or null for none
 */
public record OfferingFilter(ValueSet zones, ValueSet capacity) {

  public static OfferingFilter of(Requirements reqs) {
    return new OfferingFilter(reqs.get(InstanceLabels.ZONE).orElse(null),
        reqs.get(KarpenterLabels.CAPACITY_TYPE).orElse(null));
  }

  /** The requirements admit the offering's zone and capacity type (availability aside). */
  public boolean admits(Offering o) {
    return (zones == null || zones.admits(o.zone()))
        && (capacity == null || capacity.admits(o.capacityType().wireName()));
  }

  /** Some admitted offering of {@code type} is available now. */
  public boolean anyAvailable(InstanceType type, OfferingAvailability availability, Instant now) {
    for (Offering o : type.offerings()) {
      if (admits(o) && availability.isAvailable(type.name(), o, now)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The price a launch of {@code type} may end up paying: of its admitted offerings available now,
   * those of the first capacity type present in the launch order (reserved, spot, on-demand), the
   * dearest; {@link Double#MAX_VALUE} if none ({@code K:pkg/cloudprovider/types.go} WorstLaunchPrice).
   * Consolidation keeps a replacement type only when even this price is below what it removes.
   */
  public double worstLaunchPrice(InstanceType type, OfferingAvailability availability, Instant now) {
    for (CapacityType ct : List.of(CapacityType.RESERVED, CapacityType.SPOT, CapacityType.ON_DEMAND)) {
      double worst = -1;
      for (Offering o : type.offerings()) {
        if (o.capacityType() == ct && admits(o) && availability.isAvailable(type.name(), o, now)) {
          worst = Math.max(worst, o.pricePerHour());
        }
      }
      if (worst >= 0) {
        return worst;
      }
    }
    return Double.MAX_VALUE;
  }

  /** The price of the cheapest admitted offering of {@code type} available now; {@link Double#MAX_VALUE} if none. */
  public double cheapestAvailable(InstanceType type, OfferingAvailability availability, Instant now) {
    double best = Double.MAX_VALUE;
    for (Offering o : type.offerings()) {
      if (admits(o) && availability.isAvailable(type.name(), o, now)) {
        best = Math.min(best, o.pricePerHour());
      }
    }
    return best;
  }
}
