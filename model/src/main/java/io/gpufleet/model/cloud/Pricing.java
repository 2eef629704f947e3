package io.gpufleet.model.cloud;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How the built-in catalogue turns on-demand prices into offerings: the region and zones every type
 * is offered in, and spot as a fraction of on-demand. The default fraction 0.7 is the KWOK
 * provider's neutral choice (reference §1.9); real GPU spot discounts vary and are often smaller
 * (reference §6), so scenarios should set their own.
 */
public record Pricing(String region, List<String> zones, double spotPriceRatio) {

  public static final Pricing DEFAULT =
      new Pricing("us-east-1", List.of("us-east-1a", "us-east-1b", "us-east-1c"), 0.7);

  public Pricing {
    Objects.requireNonNull(region, "region");
    zones = List.copyOf(zones);
    if (zones.isEmpty()) {
      throw new IllegalArgumentException("at least one zone is needed");
    }
    if (!(spotPriceRatio > 0 && spotPriceRatio <= 1)) {
      throw new IllegalArgumentException("spot price ratio must be in (0, 1], found " + spotPriceRatio);
    }
  }

  public Pricing withSpotPriceRatio(double ratio) {
    return new Pricing(region, zones, ratio);
  }

  public Pricing withZones(List<String> newZones) {
    return new Pricing(region, newZones, spotPriceRatio);
  }

  /** Spot and on-demand in every zone, spot priced at the ratio. */
  public List<Offering> offeringsFor(double onDemandPrice) {
    List<Offering> out = new ArrayList<>(zones.size() * 2);
    for (String z : zones) {
      out.add(new Offering(CapacityType.SPOT, z, onDemandPrice * spotPriceRatio, true));
      out.add(new Offering(CapacityType.ON_DEMAND, z, onDemandPrice, true));
    }
    return out;
  }
}
