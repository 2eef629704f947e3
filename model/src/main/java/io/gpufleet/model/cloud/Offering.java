package io.gpufleet.model.cloud;

import java.util.Objects;

/**
 * One way to buy an instance type: a capacity type in a zone at an hourly price. An unavailable
 * offering (after an insufficient-capacity error, or a spot reclaim) is kept but not launched.
 */
public record Offering(CapacityType capacityType, String zone, double pricePerHour, boolean available) {

  public Offering {
    Objects.requireNonNull(capacityType, "capacityType");
    Objects.requireNonNull(zone, "zone");
    if (!(pricePerHour >= 0)) {
      throw new IllegalArgumentException("price must be a non-negative number, found " + pricePerHour);
    }
  }

  public Offering withAvailable(boolean now) {
    return new Offering(capacityType, zone, pricePerHour, now);
  }
}
