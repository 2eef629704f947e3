package io.gpufleet.queue.api;

import io.gpufleet.model.resource.ResourceName;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Where a workload's quota is reserved ({@code status.admission}): the ClusterQueue and, per pod
 * set, the flavor of each resource and the total usage charged ({@code resourceUsage}, in Kueue's
 * int64 units: millicores for cpu, whole units otherwise) and, for a pod set placed by
 * topology-aware scheduling, its topology assignment.
 */
public record Admission(String clusterQueue, List<PodSetAssignment> podSetAssignments) {

  public Admission {
    podSetAssignments = List.copyOf(podSetAssignments);
  }

  public record PodSetAssignment(String name, SortedMap<ResourceName, String> flavors,
      SortedMap<ResourceName, Long> resourceUsage, int count, Optional<TopologyAssignment> topologyAssignment) {

    public PodSetAssignment {
      flavors = new TreeMap<>(flavors);
      resourceUsage = new TreeMap<>(resourceUsage);
    }

    public PodSetAssignment(String name, SortedMap<ResourceName, String> flavors,
        SortedMap<ResourceName, Long> resourceUsage, int count) {
      this(name, flavors, resourceUsage, count, Optional.empty());
    }
  }
}
