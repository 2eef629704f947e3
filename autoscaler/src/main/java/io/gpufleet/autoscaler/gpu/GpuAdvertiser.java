package io.gpufleet.autoscaler.gpu;

import io.gpufleet.model.cloud.GpuSpec;
import io.gpufleet.model.label.Labels;
import java.util.Optional;

/**
 * What the NVIDIA device plugin will advertise on a node: given the node's labels (which carry the
 * per-node config choice, {@code nvidia.com/device-plugin.config}, reference §2.3) and its physical
 * GPUs, the extended resources it registers and the labels GPU Feature Discovery adds.
 *
 * <p>A seam: the simulator uses it when a plugin registers, and the provisioner uses it to size new
 * nodes by what they will advertise rather than by physical GPUs. gpufleet's device-plugin
 * emulation replaces the stand-ins here once it lands.
 */
public interface GpuAdvertiser {

  /** The node label that picks a named device-plugin config (reference §2.3). */
  String CONFIG_LABEL = "nvidia.com/device-plugin.config";

  Advertisement advertise(Labels nodeLabels, Optional<GpuSpec> gpus);
}
