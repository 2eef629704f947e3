package io.gpufleet.queue.admission;

import io.gpufleet.queue.api.ClusterQueue;
import io.gpufleet.queue.api.Cohort;
import io.gpufleet.queue.api.LocalQueue;
import io.gpufleet.queue.api.ResourceFlavor;
import io.gpufleet.queue.api.Workload;
import java.util.List;
import java.util.Optional;

/** What the scheduler reads: Kueue's objects and every workload, admitted ones with their admission. */
public record KueueState(List<ResourceFlavor> flavors, List<ClusterQueue> clusterQueues, List<Cohort> cohorts,
    List<LocalQueue> localQueues, List<Workload> workloads) {

  public KueueState {
    flavors = List.copyOf(flavors);
    clusterQueues = List.copyOf(clusterQueues);
    cohorts = List.copyOf(cohorts);
    localQueues = List.copyOf(localQueues);
    workloads = List.copyOf(workloads);
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
