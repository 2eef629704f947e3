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
 * §1.4, {@code A:pkg/cache/cache.go UnavailableOfferingsTTL}). Immutable.
 */
public record OfferingAvailability(Map<String, Instant> unavailableUntil) {

  public static final OfferingAvailability ALL = new OfferingAvailability(Map.of());
  public static final Duration TTL = Duration.ofMinutes(3);

  public OfferingAvailability {
    unavailableUntil = Map.copyOf(unavailableUntil);
  }

  static String key(String instanceType, CapacityType capacityType, String zone) {
    return instanceType + "/" + capacityType.wireName() + "/" + zone;
  }

  public boolean isAvailable(String instanceType, Offering o, Instant now) {
    if (!o.available()) {
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
    return new OfferingAvailability(m);
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
    return new OfferingAvailability(m);
  }
}
