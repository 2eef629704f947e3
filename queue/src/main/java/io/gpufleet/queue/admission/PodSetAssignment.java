package io.gpufleet.queue.admission;

import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.queue.api.TopologyAssignment;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The flavors assigned to a pod set's resources, with the reasons it does not fit
 * ({@code PodSetAssignment}); no flavors means NoFit, no reasons means Fit. A pod set placed by
 * topology-aware scheduling carries its topology assignment; {@code topologyBlocked} says its quota
 * fits but its topology does not (the twin then looks for no preemption targets).
 */
public record PodSetAssignment(String name, SortedMap<ResourceName, FlavorAssignment> flavors, List<String> reasons,
    Optional<String> error, int count, SortedMap<ResourceName, Long> requests, List<FlavorAttempt> attempts,
    Optional<TopologyAssignment> topology, boolean topologyBlocked) {

  public PodSetAssignment(String name, SortedMap<ResourceName, FlavorAssignment> flavors, List<String> reasons,
      Optional<String> error, int count, SortedMap<ResourceName, Long> requests, List<FlavorAttempt> attempts) {
    this(name, flavors, reasons, error, count, requests, attempts, Optional.empty(), false);
  }

  public PodSetAssignment {
    flavors = new TreeMap<>(flavors);
    reasons = List.copyOf(reasons);
    requests = new TreeMap<>(requests);
    attempts = List.copyOf(attempts);
  }

  public boolean fits() {
    return error.isEmpty() && reasons.isEmpty();
  }

  /** The worst mode among the assigned flavors. */
  public FlavorAssignmentMode representativeMode() {
    if (fits()) {
      return FlavorAssignmentMode.FIT;
    }
    if (error.isPresent() || flavors.isEmpty()) {
      return FlavorAssignmentMode.NO_FIT;
    }
    FlavorAssignmentMode mode = FlavorAssignmentMode.FIT;
    for (FlavorAssignment f : flavors.values()) {
      if (f.mode().compareTo(mode) < 0) {
        mode = f.mode();
      }
    }
    return mode;
  }

  /** {@code Status.Message}: the reasons sorted, joined by ", ". */
  public String statusMessage() {
    return error.orElseGet(() -> String.join(", ", reasons.stream().sorted().toList()));
  }
}
