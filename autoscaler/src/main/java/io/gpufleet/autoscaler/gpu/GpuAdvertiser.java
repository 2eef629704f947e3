package io.gpufleet.autoscaler.gpu;

import io.gpufleet.model.cloud.GpuSpec;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.label.Labels;
import java.util.Optional;

/**
 * What the NVIDIA device plugin will advertise on a node: given the node's labels (which carry the
 * per-node config choice, {@code nvidia.com/device-plugin.config}, reference §2.3) and its physical
 * GPUs, the extended resources it registers and the labels GPU Feature Discovery adds.
 *
 * <p>The role the autoscaler needs of the device plugin: the provisioner sizes new nodes by it.
 * {@link NvidiaDevicePlugin} fills it with the engine's registration; tests may use their own.
 */
public interface GpuAdvertiser {

  /** The node label that picks a named device-plugin config (reference §2.3). */
  String CONFIG_LABEL = NamedConfigs.NODE_LABEL;

  Advertised advertise(Labels nodeLabels, Optional<GpuSpec> gpus);
}
