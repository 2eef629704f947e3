package io.gpufleet.sim.metrics;

import java.util.List;
import java.util.Optional;
import java.util.SortedMap;

/**
 * A run's measurements: time series (node counts and spend per NodePool, GPUs allocated and in the
 * fleet, pending pods, Ready pods per workload), cost per node and NodePool (instance-seconds ×
 * price), GPU-hours allocated and idle, pending time per pod, disruptions and evictions by reason,
 * and what each service's users saw.
 */
public record Metrics(SortedMap<String, TimeSeries> series, SortedMap<String, Double> costByNode,
    SortedMap<String, Double> costByNodePool, double gpuHoursAllocated, double gpuHoursIdle,
    List<PodPendingTime> pendingTimes, SortedMap<String, Integer> disruptionsByReason,
    SortedMap<String, Integer> evictionsByReason, SortedMap<String, ServiceMetrics> services) {

  public Metrics {
    series = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(series));
    costByNode = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(costByNode));
    costByNodePool = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(costByNodePool));
    pendingTimes = List.copyOf(pendingTimes);
    disruptionsByReason = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(disruptionsByReason));
    evictionsByReason = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(evictionsByReason));
    services = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(services));
  }

  public Optional<TimeSeries> series(String name) {
    return Optional.ofNullable(series.get(name));
  }

  public Optional<ServiceMetrics> service(String workload) {
    return Optional.ofNullable(services.get(workload));
  }

  public double totalCost() {
    return costByNodePool.values().stream().mapToDouble(Double::doubleValue).sum();
  }

  public static String nodesSeries(String nodePool) {
    return "nodes{nodepool=" + nodePool + "}";
  }

  public static String costRateSeries(String nodePool) {
    return "cost_per_hour{nodepool=" + nodePool + "}";
  }

  public static String readySeries(String workload) {
    return "ready_pods{workload=" + workload + "}";
  }

  public static final String GPUS_ALLOCATED = "gpus_allocated";
  public static final String GPUS_TOTAL = "gpus_total";
  public static final String PENDING_PODS = "pending_pods";
}
