package io.gpufleet.engine.deviceplugin;

import io.gpufleet.model.resource.ResourceName;
import java.util.List;

/** The devices the kubelet handed one container for one resource. */
public record ContainerDevices(String podKey, String container, ResourceName resource, List<Device> devices) {
  public ContainerDevices {
    devices = List.copyOf(devices);
  }
}
