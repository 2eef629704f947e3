package io.gpufleet.sim.scenario;

import io.gpufleet.autoscaler.gpu.GpuAdvertiser;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.model.label.LabelSelector;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How the NVIDIA device plugin behaves on GPU nodes: what it advertises (by the node's config
 * label), how long after the node is Ready it registers with the kubelet (until then the node
 * advertises {@code nvidia.com/gpu: 0}), and on which nodes it never registers, to reproduce a broken
 * plugin (reference §7, pain points 1 and 2).
 *
 * <p>The registration delay has no upstream figure; 30 s stands for the plugin pod's start.
 */
public record DevicePlugin(GpuAdvertiser advertiser, Duration registrationDelay,
    Optional<LabelSelector> neverRegistersOn) {

  /** The plugin with its built-in defaults (whole GPUs), registering 30 s after the node is Ready. */
  public static final DevicePlugin DEFAULTS = new DevicePlugin(NvidiaDevicePlugin.DEFAULTS, Duration.ofSeconds(30),
      Optional.empty());

  public DevicePlugin {
    Objects.requireNonNull(advertiser, "advertiser");
    Objects.requireNonNull(registrationDelay, "registrationDelay");
    Objects.requireNonNull(neverRegistersOn, "neverRegistersOn");
  }

  public DevicePlugin withAdvertiser(GpuAdvertiser a) {
    return new DevicePlugin(a, registrationDelay, neverRegistersOn);
  }

  public DevicePlugin withRegistrationDelay(Duration d) {
    return new DevicePlugin(advertiser, d, neverRegistersOn);
  }

  public DevicePlugin neverRegisteringOn(LabelSelector s) {
    return new DevicePlugin(advertiser, registrationDelay, Optional.of(s));
  }
}
