package io.gpufleet.model.deviceplugin;

import java.util.List;
import java.util.Optional;

/** {@code sharing.timeSlicing} or {@code sharing.mps}: the same shape for both. */
public record SharingSpec(boolean renameByDefault, boolean failRequestsGreaterThanOne,
    List<ReplicatedResource> resources) {

  public SharingSpec {
    resources = List.copyOf(resources);
  }

  /** The entry for a resource name, if it is shared. */
  public Optional<ReplicatedResource> resource(String name) {
    return resources.stream().filter(r -> r.name().equals(name)).findFirst();
  }

  /** Whether any entry asks for more than one replica (what makes the strategy active). */
  public boolean active() {
    return resources.stream().anyMatch(r -> r.replicas() > 1);
  }
}
