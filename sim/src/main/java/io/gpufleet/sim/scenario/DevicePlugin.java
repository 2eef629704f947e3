package io.gpufleet.sim.scenario;

import io.gpufleet.autoscaler.gpu.GpuAdvertiser;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.engine.deviceplugin.GpuOperator;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.workload.Workload;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How the NVIDIA device plugin and the MIG manager behave on GPU nodes: what the plugin advertises
 * (the engine's {@link GpuOperator}, with the scenario's device-plugin and mig-parted ConfigMaps),
 * which pods run it, how long after it starts it registers with the kubelet (until then the node
 * advertises {@code nvidia.com/gpu: 0}), on which nodes it never registers, to reproduce a broken
 * plugin (reference §7, pain points 1 and 2), and how long a MIG reconfiguration takes.
 *
 * <p>A plugin registers from a socket its own process opens, so it cannot register before its pod
 * runs. Where the scenario has the plugin's DaemonSet, the registration delay counts from the
 * plugin's container start on that node (after its image is pulled); without one, the plugin is
 * assumed to run outside the modelled pods and the delay counts from the node's Ready. The delay
 * has no upstream figure; 30 s is an assumption.
 *
 * <p>The MIG reconfiguration time has no upstream figure either: NVIDIA's k8s-mig-manager
 * (NVIDIA/mig-parted {@code deployments/gpu-operator/reconfigure-mig.sh}) waits up to five minutes
 * for each GPU operand to shut down and sleeps 30 s after stopping host GPU clients when MIG mode
 * changes ({@code reconfigure-mig.go}); 2 minutes is an assumption.
 *
 * @param plugin the autoscaler's view of the same operator, for sizing the nodes it launches
 * @param daemonSet the plugin's DaemonSet;
 *     empty to recognise it by NVIDIA's image, {@value #PLUGIN_IMAGE}
 * @param migReconfiguration from a changed {@code nvidia.com/mig.config} label to the new layout
 */
public record DevicePlugin(NvidiaDevicePlugin plugin, Duration registrationDelay,
    Optional<LabelSelector> neverRegistersOn, Optional<ObjectRef> daemonSet, Duration migReconfiguration) {

  /** The image repository NVIDIA publishes the plugin under (static manifest, helm chart, GPU Operator). */
  public static final String PLUGIN_IMAGE = "nvcr.io/nvidia/k8s-device-plugin";

  /** The plugin with its built-in defaults (whole GPUs), registering 30 s after it starts. */
  public static final DevicePlugin DEFAULTS = new DevicePlugin(NvidiaDevicePlugin.DEFAULTS, Duration.ofSeconds(30),
      Optional.empty(), Optional.empty(), Duration.ofMinutes(2));

  public DevicePlugin {
    Objects.requireNonNull(plugin, "plugin");
    Objects.requireNonNull(registrationDelay, "registrationDelay");
    Objects.requireNonNull(neverRegistersOn, "neverRegistersOn");
    Objects.requireNonNull(daemonSet, "daemonSet");
    Objects.requireNonNull(migReconfiguration, "migReconfiguration");
  }

  /** The device plugin, MIG manager and GFD that register the simulated nodes. */
  public GpuOperator operator() {
    return plugin.operator();
  }

  /** What Karpenter expects a node it launches to advertise. */
  public GpuAdvertiser advertiser() {
    return plugin;
  }

  /**
   * Whether this workload is the plugin's DaemonSet: the one {@code daemonSet} names, or else one
   * whose pods run NVIDIA's plugin image.
   */
  public boolean isPluginDaemonSet(ObjectRef ref, Workload workload) {
    if (!(workload instanceof Workload.DaemonSet ds)) {
      return false;
    }
    return daemonSet.map(ref::equals).orElseGet(() -> runsPluginImage(ds.template().spec()));
  }

  static boolean runsPluginImage(PodSpec spec) {
    return spec.images().stream().anyMatch(i -> i.equals(PLUGIN_IMAGE) || i.startsWith(PLUGIN_IMAGE + ":")
        || i.startsWith(PLUGIN_IMAGE + "@"));
  }

  public DevicePlugin withOperator(GpuOperator o) {
    return new DevicePlugin(new NvidiaDevicePlugin(o), registrationDelay, neverRegistersOn, daemonSet,
        migReconfiguration);
  }

  public DevicePlugin withRegistrationDelay(Duration d) {
    return new DevicePlugin(plugin, d, neverRegistersOn, daemonSet, migReconfiguration);
  }

  public DevicePlugin neverRegisteringOn(LabelSelector s) {
    return new DevicePlugin(plugin, registrationDelay, Optional.of(s), daemonSet, migReconfiguration);
  }

  /** The plugin runs in the pods of this DaemonSet. */
  public DevicePlugin inDaemonSet(String namespace, String name) {
    return new DevicePlugin(plugin, registrationDelay, neverRegistersOn,
        Optional.of(new ObjectRef("DaemonSet", namespace, name)), migReconfiguration);
  }

  public DevicePlugin withMigReconfiguration(Duration d) {
    return new DevicePlugin(plugin, registrationDelay, neverRegistersOn, daemonSet, d);
  }
}
