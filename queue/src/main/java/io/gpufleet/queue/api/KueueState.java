package io.gpufleet.queue.api;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Kueue's objects, its manager Configuration and every workload, admitted ones with their
 * admission: what the scheduler reads and what the manifest reader gives. Topologies are those TAS
 * flavors name; WorkloadPriorityClasses (name to value) give the priority of a Job or pod that names
 * one ({@code kueue.x-k8s.io/priority-class}).
 */
public record KueueState(List<ResourceFlavor> flavors, List<ClusterQueue> clusterQueues, List<Cohort> cohorts,
    List<LocalQueue> localQueues, List<Workload> workloads, KueueConfiguration configuration,
    List<Topology> topologies, Map<String, Integer> workloadPriorityClasses) {

  public KueueState {
    flavors = List.copyOf(flavors);
    clusterQueues = List.copyOf(clusterQueues);
    cohorts = List.copyOf(cohorts);
    localQueues = List.copyOf(localQueues);
    workloads = List.copyOf(workloads);
    topologies = List.copyOf(topologies);
    workloadPriorityClasses = Map.copyOf(workloadPriorityClasses);
  }

  /** Without WorkloadPriorityClasses. */
  public KueueState(List<ResourceFlavor> flavors, List<ClusterQueue> clusterQueues, List<Cohort> cohorts,
      List<LocalQueue> localQueues, List<Workload> workloads, KueueConfiguration configuration,
      List<Topology> topologies) {
    this(flavors, clusterQueues, cohorts, localQueues, workloads, configuration, topologies, Map.of());
  }

  /** Without Topologies. */
  public KueueState(List<ResourceFlavor> flavors, List<ClusterQueue> clusterQueues, List<Cohort> cohorts,
      List<LocalQueue> localQueues, List<Workload> workloads, KueueConfiguration configuration) {
    this(flavors, clusterQueues, cohorts, localQueues, workloads, configuration, List.of());
  }

  /** With Kueue's default Configuration. */
  public KueueState(List<ResourceFlavor> flavors, List<ClusterQueue> clusterQueues, List<Cohort> cohorts,
      List<LocalQueue> localQueues, List<Workload> workloads) {
    this(flavors, clusterQueues, cohorts, localQueues, workloads, KueueConfiguration.DEFAULT);
  }

  /** The same objects and Configuration with these workloads. */
  public KueueState withWorkloads(List<Workload> wls) {
    return new KueueState(flavors, clusterQueues, cohorts, localQueues, wls, configuration, topologies,
        workloadPriorityClasses);
  }

  public KueueState withConfiguration(KueueConfiguration c) {
    return new KueueState(flavors, clusterQueues, cohorts, localQueues, workloads, c, topologies,
        workloadPriorityClasses);
  }

  public KueueState withTopologies(List<Topology> t) {
    return new KueueState(flavors, clusterQueues, cohorts, localQueues, workloads, configuration, t,
        workloadPriorityClasses);
  }

  public Optional<Topology> topology(String name) {
    return topologies.stream().filter(t -> t.name().equals(name)).findFirst();
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

  /**
   * {@code inactiveReason}'s TopologyNotFound messages: each TAS flavor of the ClusterQueue whose
   * Topology does not exist, as {@code there is no Topology "t" for TAS flavor "f"}.
   */
  public List<String> missingTopologies(ClusterQueue cq) {
    return cq.resourceGroups().stream().flatMap(g -> g.flavorNames().stream()).distinct().sorted()
        .flatMap(f -> flavors.stream().filter(rf -> rf.name().equals(f)))
        .filter(rf -> rf.topologyName().isPresent() && topology(rf.topologyName().get()).isEmpty())
        .map(rf -> "there is no Topology \"" + rf.topologyName().get() + "\" for TAS flavor \"" + rf.name() + "\"")
        .toList();
  }
}
