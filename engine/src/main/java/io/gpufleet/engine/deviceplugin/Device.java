package io.gpufleet.engine.deviceplugin;

import io.gpufleet.model.gpu.MigInstance;
import io.gpufleet.model.resource.ResourceName;
import java.util.Objects;
import java.util.Optional;

/**
 * One device the plugin advertises to the kubelet: a whole GPU, a MIG device, or one replica of
 * either under time-slicing or MPS. {@code id} is the plugin's device ID: the GPU or MIG UUID, with
 * {@code ::<replica>} for replicas as the plugin writes them.
 */
public record Device(
    String id, ResourceName resource, int gpuIndex, String gpuUuid, Optional<MigInstance> mig,
    Optional<String> migUuid, int replica, int replicas) {

  public Device {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(resource, "resource");
  }

  /** The UUID a container sees in {@code NVIDIA_VISIBLE_DEVICES}: the MIG device's, else the GPU's. */
  public String visibleUuid() {
    return migUuid.orElse(gpuUuid);
  }

  public boolean shared() {
    return replicas > 1;
  }
}
