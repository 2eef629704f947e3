package io.gpufleet.queue.api;

import io.gpufleet.model.resource.ResourceName;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Where a workload's quota is reserved ({@code status.admission}): the ClusterQueue and, per pod
 * set, the flavor of each resource and the total usage charged ({@code resourceUsage}, in Kueue's
 * int64 units: millicores for cpu, whole units otherwise).
 */
public record Admission(String clusterQueue, List<PodSetAssignment> podSetAssignments) {

  public Admission {
    podSetAssignments = List.copyOf(podSetAssignments);
  }

  public record PodSetAssignment(String name, SortedMap<ResourceName, String> flavors,
      SortedMap<ResourceName, Long> resourceUsage, int count) {

    public PodSetAssignment {
      flavors = new TreeMap<>(flavors);
      resourceUsage = new TreeMap<>(resourceUsage);
    }
  }
}
