package io.gpufleet.engine.perf;

import io.gpufleet.model.deviceplugin.SharingMode;
import java.util.List;
import java.util.Objects;

/**
 * Tenants that share one device under one way of sharing it. Exclusive use and a MIG instance
 * alone never hold more than one tenant; time-slicing and MPS no more than their replicas.
 */
public record Colocation(Device device, SharingMode mode, List<Tenant> tenants) {

  public Colocation {
    Objects.requireNonNull(device, "device");
    Objects.requireNonNull(mode, "mode");
    tenants = List.copyOf(tenants);
    if (tenants.isEmpty()) {
      throw new IllegalArgumentException("a colocation needs at least one tenant");
    }
    if (tenants.size() > mode.tenantsPerDevice()) {
      throw new IllegalArgumentException(mode.label() + " takes at most " + mode.tenantsPerDevice()
          + " tenant(s) per device, found " + tenants.size());
    }
    boolean sliced = mode instanceof SharingMode.Mig;
    if (sliced != device.slice().isPresent()) {
      throw new IllegalArgumentException(mode.label() + " does not run on " + device.name());
    }
    if (mode instanceof SharingMode.Mig m && !device.slice().orElseThrow().name().equals(m.profile())) {
      throw new IllegalArgumentException(mode.label() + " does not run on " + device.name());
    }
  }

  public boolean shared() {
    return tenants.size() > 1;
  }
}
