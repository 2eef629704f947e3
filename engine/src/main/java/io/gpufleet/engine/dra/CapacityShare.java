package io.gpufleet.engine.dra;

import io.gpufleet.model.dra.Device;
import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.RequestPolicy;
import io.gpufleet.model.resource.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a request consumes of a device's capacities (DRAConsumableCapacity, KEP-5075;
 * {@code k8s.io/dynamic-resource-allocation/structured/internal/experimental}, {@code consumablecapacity.go}):
 * for each capacity of the device, the amount the request asks for, raised to what the capacity's
 * {@code requestPolicy} allows (the smallest of its {@code validValues} at least that large, or
 * {@code validRange}'s {@code min} plus whole {@code step}s, at most {@code max}); a capacity not asked
 * for consumes the policy's {@code default}, or the whole capacity where there is no policy. A request
 * that asks for a capacity the device lacks, or for more than the policy allows, does not match it.
 */
final class CapacityShare {
  private CapacityShare() {}

  /** The share of {@code device} that {@code request} consumes; empty where it cannot consume one. */
  static Optional<Map<String, Quantity>> of(DeviceRequest request, String driver, Device device) {
    for (String asked : request.capacity().keySet()) {
      if (!device.capacity().containsKey(local(asked, driver))) {
        return Optional.empty();
      }
    }
    Map<String, Quantity> out = new LinkedHashMap<>();
    for (var e : device.capacity().entrySet()) {
      Quantity value = Quantity.parse(e.getValue());
      Optional<Quantity> asked = asked(request, driver, e.getKey());
      RequestPolicy policy = device.requestPolicies().get(e.getKey());
      Optional<Quantity> share;
      if (policy == null) {
        share = Optional.of(asked.orElse(value));
      } else if (asked.isEmpty()) {
        share = Optional.of(policy.defaultValue().orElse(value));
      } else {
        share = rounded(asked.get(), policy);
      }
      if (share.isEmpty()) {
        return Optional.empty();
      }
      out.put(e.getKey(), share.get());
    }
    return Optional.of(out);
  }

  /**
   * Whether a device given whole meets the request's capacity requests: each capacity asked for exists
   * and is at least the amount asked.
   */
  static boolean wholeMeets(DeviceRequest request, String driver, Device device) {
    for (var e : request.capacity().entrySet()) {
      String have = device.capacity().get(local(e.getKey(), driver));
      if (have == null || Quantity.parse(have).compareTo(e.getValue()) < 0) {
        return false;
      }
    }
    return true;
  }

  private static Optional<Quantity> asked(DeviceRequest request, String driver, String capacity) {
    for (var e : request.capacity().entrySet()) {
      if (local(e.getKey(), driver).equals(capacity)) {
        return Optional.of(e.getValue());
      }
    }
    return Optional.empty();
  }

  /** A capacity's name as the slice writes it: the driver's own domain dropped. */
  private static String local(String name, String driver) {
    return name.startsWith(driver + "/") ? name.substring(driver.length() + 1) : name;
  }

  /** {@code asked} raised to the policy's next allowed amount; empty above its largest. */
  private static Optional<Quantity> rounded(Quantity asked, RequestPolicy policy) {
    if (!policy.validValues().isEmpty()) {
      return policy.validValues().stream().filter(v -> v.compareTo(asked) >= 0).min(Quantity::compareTo);
    }
    if (policy.min().isEmpty()) {
      return Optional.of(asked);
    }
    Quantity min = policy.min().get();
    Quantity share = asked.compareTo(min) <= 0 ? min : asked;
    if (policy.step().isPresent() && policy.step().get().signum() > 0 && share.compareTo(min) > 0) {
      BigDecimal step = policy.step().get().amount();
      BigDecimal steps = share.amount().subtract(min.amount()).divide(step, 0, RoundingMode.CEILING);
      share = new Quantity(min.amount().add(step.multiply(steps)), asked.format());
    }
    if (policy.max().isPresent() && share.compareTo(policy.max().get()) > 0) {
      return Optional.empty();
    }
    return Optional.of(share);
  }
}
