package io.gpufleet.model.dra;

import java.util.Objects;
import java.util.Optional;

/**
 * {@code resource.k8s.io/v1} DeviceTaintRule: one taint added to every device its selector matches,
 * as if the driver had written it in the ResourceSlice. Without a selector no device matches; an
 * empty selector matches all; {@code driver}, {@code pool} and {@code device} narrow it.
 */
public record DeviceTaintRule(String name, Optional<Selector> selector, DeviceTaint taint) implements DraObject {

  /** {@code spec.deviceSelector} ({@code DeviceTaintSelector}). */
  public record Selector(Optional<String> driver, Optional<String> pool, Optional<String> device) {
    public Selector {
      Objects.requireNonNull(driver, "driver");
      Objects.requireNonNull(pool, "pool");
      Objects.requireNonNull(device, "device");
    }

    public boolean matches(String driverName, String poolName, String deviceName) {
      return driver.map(driverName::equals).orElse(true) && pool.map(poolName::equals).orElse(true)
          && device.map(deviceName::equals).orElse(true);
    }
  }

  public DeviceTaintRule {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(selector, "selector");
    Objects.requireNonNull(taint, "taint");
  }

  /** Whether the rule taints the device {@code driver/pool/device}. */
  public boolean matches(String driver, String pool, String device) {
    return selector.map(s -> s.matches(driver, pool, device)).orElse(false);
  }

  public DeviceTaintRule withTaint(DeviceTaint t) {
    return new DeviceTaintRule(name, selector, t);
  }

  @Override
  public String kind() {
    return "DeviceTaintRule";
  }
}
