package io.gpufleet.model.cloud;

import java.util.Objects;
import java.util.Optional;

/**
 * One way to buy an instance type: a capacity type in a zone at an hourly price. An unavailable
 * offering (after an insufficient-capacity error, or a spot reclaim) is kept but not launched. A
 * {@code reserved} offering names its capacity reservation and how many instances it still takes
 * ({@code reservationCapacity}), as the AWS provider's reserved offerings carry them
 * ({@code A:pkg/providers/instancetype/offering/reserved_capacity_resolver.go}).
 */
public record Offering(CapacityType capacityType, String zone, double pricePerHour, boolean available,
    Optional<CapacityReservation> reservation, int reservationCapacity) {

  public Offering {
    Objects.requireNonNull(capacityType, "capacityType");
    Objects.requireNonNull(zone, "zone");
    Objects.requireNonNull(reservation, "reservation");
    if (!(pricePerHour >= 0)) {
      throw new IllegalArgumentException("price must be a non-negative number, found " + pricePerHour);
    }
    if (reservation.isPresent() != (capacityType == CapacityType.RESERVED)) {
      throw new IllegalArgumentException("a reservation goes with capacity type reserved, and only with it");
    }
  }

  /** A spot or on-demand offering. */
  public Offering(CapacityType capacityType, String zone, double pricePerHour, boolean available) {
    this(capacityType, zone, pricePerHour, available, Optional.empty(), 0);
  }

  /** The reserved offering of a reservation, priced as the AWS provider prices it, taking {@code capacity} more. */
  public static Offering reserved(CapacityReservation r, double onDemandPrice, int capacity, boolean available) {
    return new Offering(CapacityType.RESERVED, r.zone(), CapacityReservation.offeringPrice(onDemandPrice), available,
        Optional.of(r), capacity);
  }

  /** The reservation's id, or empty for spot and on-demand. */
  public Optional<String> reservationId() {
    return reservation.map(CapacityReservation::id);
  }

  public Offering withAvailable(boolean now) {
    return new Offering(capacityType, zone, pricePerHour, now, reservation, reservationCapacity);
  }

  public Offering withPrice(double price) {
    return new Offering(capacityType, zone, price, available, reservation, reservationCapacity);
  }
}
