package io.gpufleet.autoscaler.state;

import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.Offering;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Offerings Karpenter has marked unavailable (after an insufficient-capacity error or a spot
 * interruption) and until when: the AWS provider's cache keeps them for three minutes (reference
 * §1.4, {@code A:pkg/cache/cache.go UnavailableOfferingsTTL}), and the instances of each capacity
 * reservation already taken by claims of the round in hand, so one round does not launch more into
 * a reservation than its offering's {@code reservationCapacity} (core's reservation manager,
 * {@code K:pkg/controllers/provisioning/scheduling/reservationmanager.go}). Immutable.
 */
public record OfferingAvailability(Map<String, Instant> unavailableUntil, Map<String, Integer> reservationsTaken) {

  public static final OfferingAvailability ALL = new OfferingAvailability(Map.of());
  public static final Duration TTL = Duration.ofMinutes(3);

  public OfferingAvailability {
    unavailableUntil = Map.copyOf(unavailableUntil);
    reservationsTaken = Map.copyOf(reservationsTaken);
  }

  public OfferingAvailability(Map<String, Instant> unavailableUntil) {
    this(unavailableUntil, Map.of());
  }

  /** One more instance of the reservation is taken by a claim of this round. */
  public OfferingAvailability withReservationTaken(String reservationId) {
    TreeMap<String, Integer> m = new TreeMap<>(reservationsTaken);
    m.merge(reservationId, 1, Integer::sum);
    return new OfferingAvailability(unavailableUntil, m);
  }

  static String key(String instanceType, CapacityType capacityType, String zone) {
    return instanceType + "/" + capacityType.wireName() + "/" + zone;
  }

  public boolean isAvailable(String instanceType, Offering o, Instant now) {
    if (!o.available()) {
      return false;
    }
    if (o.reservation().isPresent()
        && reservationsTaken.getOrDefault(o.reservation().get().id(), 0) >= o.reservationCapacity()) {
      return false;
    }
    if (unavailableUntil.isEmpty()) {
      return true;
    }
    Instant until = unavailableUntil.get(key(instanceType, o.capacityType(), o.zone()));
    return until == null || !now.isBefore(until);
  }

  public OfferingAvailability markUnavailable(String instanceType, CapacityType capacityType, String zone,
      Instant until) {
    TreeMap<String, Instant> m = new TreeMap<>(unavailableUntil);
    m.put(key(instanceType, capacityType, zone), until);
    return new OfferingAvailability(m, reservationsTaken);
  }

  /** The earliest time an offering becomes available again after {@code now}. */
  public Optional<Instant> nextExpiry(Instant now) {
    return unavailableUntil.values().stream().filter(now::isBefore).min(Instant::compareTo);
  }

  /** Drops entries that have expired. */
  public OfferingAvailability prune(Instant now) {
    if (unavailableUntil.values().stream().allMatch(now::isBefore)) {
      return this;
    }
    TreeMap<String, Instant> m = new TreeMap<>();
    unavailableUntil.forEach((k, v) -> {
      if (now.isBefore(v)) {
        m.put(k, v);
      }
    });
    return new OfferingAvailability(m, reservationsTaken);
  }
}
