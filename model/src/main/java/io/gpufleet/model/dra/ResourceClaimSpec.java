package io.gpufleet.model.dra;

import java.util.List;

/**
 * What a claim asks for: its device requests, all of which must be met on one node, and the opaque
 * driver configuration ({@code spec.devices.config}) the driver applies when it prepares the devices.
 */
public record ResourceClaimSpec(List<DeviceRequest> requests, List<DeviceConfig> config) {

  public ResourceClaimSpec {
    requests = List.copyOf(requests);
    config = List.copyOf(config);
  }

  public ResourceClaimSpec(List<DeviceRequest> requests) {
    this(requests, List.of());
  }
}
