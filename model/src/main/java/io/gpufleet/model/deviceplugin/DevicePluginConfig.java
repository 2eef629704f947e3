package io.gpufleet.model.deviceplugin;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The NVIDIA device plugin's {@code version: v1} config file: flags and the two sharing sections
 * (k8s-gpu-semantics §2.1). {@link #DEFAULT} is what the plugin runs with when given no config.
 */
public record DevicePluginConfig(Flags flags, Optional<SharingSpec> timeSlicing, Optional<SharingSpec> mps) {

  public static final DevicePluginConfig DEFAULT =
      new DevicePluginConfig(Flags.DEFAULTS, Optional.empty(), Optional.empty());

  public DevicePluginConfig {
    Objects.requireNonNull(flags, "flags");
    timeSlicing = timeSlicing == null ? Optional.empty() : timeSlicing;
    mps = mps == null ? Optional.empty() : mps;
  }

  public static DevicePluginConfig timeSliced(int replicas, boolean renameByDefault) {
    return new DevicePluginConfig(Flags.DEFAULTS,
        Optional.of(new SharingSpec(renameByDefault, false,
            List.of(ReplicatedResource.of("nvidia.com/gpu", replicas)))), Optional.empty());
  }

  public static DevicePluginConfig mpsShared(int replicas) {
    return new DevicePluginConfig(Flags.DEFAULTS, Optional.empty(),
        Optional.of(new SharingSpec(false, true, List.of(ReplicatedResource.of("nvidia.com/gpu", replicas)))));
  }

  public static DevicePluginConfig mig(MigStrategy strategy) {
    return new DevicePluginConfig(Flags.DEFAULTS.withMigStrategy(strategy), Optional.empty(), Optional.empty());
  }

  /** MPS if any MPS resource has replicas > 1, else time-slicing likewise, else exclusive. */
  public Sharing sharing() {
    if (mps.isPresent() && mps.get().active()) {
      return new Sharing.Mps(mps.get());
    }
    if (timeSlicing.isPresent() && timeSlicing.get().active()) {
      return new Sharing.TimeSlicing(timeSlicing.get());
    }
    return new Sharing.Exclusive();
  }

  public DevicePluginConfig withFlags(Flags f) {
    return new DevicePluginConfig(f, timeSlicing, mps);
  }
}
