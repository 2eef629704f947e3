package io.gpufleet.model.dra;

import java.util.List;

/** What a claim asks for: its device requests, all of which must be met on one node. */
public record ResourceClaimSpec(List<DeviceRequest> requests) {

  public ResourceClaimSpec {
    requests = List.copyOf(requests);
  }
}
