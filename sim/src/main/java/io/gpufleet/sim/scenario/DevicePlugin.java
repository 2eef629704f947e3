package io.gpufleet.sim.scenario;

import io.gpufleet.autoscaler.gpu.GpuAdvertiser;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.engine.deviceplugin.GpuOperator;
import io.gpufleet.model.label.LabelSelector;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How the NVIDIA device plugin behaves on GPU nodes: what it advertises (the engine's
 * {@link GpuOperator}, with the scenario's device-plugin and mig-parted ConfigMaps), how long after
 * the node is Ready it registers with the kubelet (until then the node advertises
 * {@code nvidia.com/gpu: 0}), and on which nodes it never registers, to reproduce a broken plugin
 * (reference §7, pain points 1 and 2).
 *
 * <p>The registration delay has no upstream figure; 30 s stands for the plugin pod's start.
 *
 * @param plugin the autoscaler's view of the same operator, for sizing the nodes it launches
 */
public record DevicePlugin(NvidiaDevicePlugin plugin, Duration registrationDelay,
    Optional<LabelSelector> neverRegistersOn) {

  /** The plugin with its built-in defaults (whole GPUs), registering 30 s after the node is Ready. */
  public static final DevicePlugin DEFAULTS = new DevicePlugin(NvidiaDevicePlugin.DEFAULTS, Duration.ofSeconds(30),
      Optional.empty());

  public DevicePlugin {
    Objects.requireNonNull(plugin, "plugin");
    Objects.requireNonNull(registrationDelay, "registrationDelay");
    Objects.requireNonNull(neverRegistersOn, "neverRegistersOn");
  }

  /** The device plugin, MIG manager and GFD that register the simulated nodes. */
  public GpuOperator operator() {
    return plugin.operator();
  }

  /** What Karpenter expects a node it launches to advertise. */
  public GpuAdvertiser advertiser() {
    return plugin;
  }

  public DevicePlugin withOperator(GpuOperator o) {
    return new DevicePlugin(new NvidiaDevicePlugin(o), registrationDelay, neverRegistersOn);
  }

  public DevicePlugin withRegistrationDelay(Duration d) {
    return new DevicePlugin(plugin, d, neverRegistersOn);
  }

  public DevicePlugin neverRegisteringOn(LabelSelector s) {
    return new DevicePlugin(plugin, registrationDelay, Optional.of(s));
  }
}
