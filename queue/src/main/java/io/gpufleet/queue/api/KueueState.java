package io.gpufleet.queue.api;

import java.util.List;
import java.util.Optional;

/**
 * Kueue's objects, its manager Configuration and every workload, admitted ones with their
 * admission: what the scheduler reads and what the manifest reader gives.
 */
public record KueueState(List<ResourceFlavor> flavors, List<ClusterQueue> clusterQueues, List<Cohort> cohorts,
    List<LocalQueue> localQueues, List<Workload> workloads, KueueConfiguration configuration) {

  public KueueState {
    flavors = List.copyOf(flavors);
    clusterQueues = List.copyOf(clusterQueues);
    cohorts = List.copyOf(cohorts);
    localQueues = List.copyOf(localQueues);
    workloads = List.copyOf(workloads);
  }

  /** With Kueue's default Configuration. */
  public KueueState(List<ResourceFlavor> flavors, List<ClusterQueue> clusterQueues, List<Cohort> cohorts,
      List<LocalQueue> localQueues, List<Workload> workloads) {
    this(flavors, clusterQueues, cohorts, localQueues, workloads, KueueConfiguration.DEFAULT);
  }

  /** The same objects and Configuration with these workloads. */
  public KueueState withWorkloads(List<Workload> wls) {
    return new KueueState(flavors, clusterQueues, cohorts, localQueues, wls, configuration);
  }

  public KueueState withConfiguration(KueueConfiguration c) {
    return new KueueState(flavors, clusterQueues, cohorts, localQueues, workloads, c);
  }

  /** The ClusterQueue a workload's LocalQueue points at. */
  public Optional<String> clusterQueueOf(Workload wl) {
    return localQueues.stream().filter(q -> q.namespace().equals(wl.namespace()) && q.name().equals(wl.queueName()))
        .map(LocalQueue::clusterQueue).findFirst();
  }

  public Optional<ClusterQueue> clusterQueue(String name) {
    return clusterQueues.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  /** The flavors a ClusterQueue names that do not exist; a ClusterQueue with any is inactive. */
  public List<String> missingFlavors(ClusterQueue cq) {
    return cq.resourceGroups().stream().flatMap(g -> g.flavorNames().stream()).distinct()
        .filter(f -> flavors.stream().noneMatch(rf -> rf.name().equals(f))).toList();
  }
}
