package io.gpufleet.engine.perf;

import io.gpufleet.model.deviceplugin.SharingMode;
import java.util.List;

/**
 * What every tenant on one device gets, and the device's load: the share of its capacity the
 * tenants' requests take (1 or more means it cannot keep up).
 */
public record CardForecast(Device device, SharingMode mode, List<TenantForecast> tenants, double load) {

  public CardForecast {
    tenants = List.copyOf(tenants);
  }

  public boolean stable() {
    return tenants.stream().allMatch(TenantForecast::stable);
  }

  /** The worst tenant's p99. */
  public double worstP99Ms() {
    return tenants.stream().mapToDouble(TenantForecast::p99Ms).max().orElse(0);
  }
}
