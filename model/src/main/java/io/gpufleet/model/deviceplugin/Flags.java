package io.gpufleet.model.deviceplugin;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code flags} section of a {@code version: v1} config, with the plugin's defaults
 * (k8s-gpu-semantics §2.1). Flags gpufleet does not act on (driver roots, CDI, GDS) are kept so a
 * config reads back as written.
 */
public record Flags(
    MigStrategy migStrategy,
    boolean failOnInitError,
    String nvidiaDriverRoot,
    Optional<String> mpsRoot,
    String deviceDiscoveryStrategy,
    boolean passDeviceSpecs,
    List<String> deviceListStrategy,
    String deviceIdStrategy,
    AllocationPolicy sharedDevicesAllocationPolicy,
    boolean gfdNoTimestamp,
    String gfdSleepInterval) {

  public static final Flags DEFAULTS = new Flags(MigStrategy.NONE, true, "/", Optional.empty(), "auto", false,
      List.of("envvar"), "uuid", AllocationPolicy.DISTRIBUTED, false, "60s");

  public Flags {
    Objects.requireNonNull(migStrategy, "migStrategy");
    Objects.requireNonNull(sharedDevicesAllocationPolicy, "sharedDevicesAllocationPolicy");
    mpsRoot = mpsRoot == null ? Optional.empty() : mpsRoot;
    deviceListStrategy = List.copyOf(deviceListStrategy);
  }

  public Flags withMigStrategy(MigStrategy s) {
    return new Flags(s, failOnInitError, nvidiaDriverRoot, mpsRoot, deviceDiscoveryStrategy, passDeviceSpecs,
        deviceListStrategy, deviceIdStrategy, sharedDevicesAllocationPolicy, gfdNoTimestamp, gfdSleepInterval);
  }

  public Flags withAllocationPolicy(AllocationPolicy p) {
    return new Flags(migStrategy, failOnInitError, nvidiaDriverRoot, mpsRoot, deviceDiscoveryStrategy,
        passDeviceSpecs, deviceListStrategy, deviceIdStrategy, p, gfdNoTimestamp, gfdSleepInterval);
  }
}
