package io.gpufleet.sim.metrics;

import java.util.List;
import java.util.Optional;
import java.util.SortedMap;

/**
 * A run's measurements: time series (node counts and spend per NodePool, GPUs allocated and in the
 * fleet, pending pods, Ready pods per workload), cost per node and NodePool (instance-seconds ×
 * price), GPU-hours allocated and idle, pending time per pod, disruptions and evictions by reason,
 * what each service's users saw, and which pod held which card when.
 */
public record Metrics(SortedMap<String, TimeSeries> series, SortedMap<String, Double> costByNode,
    SortedMap<String, Double> costByNodePool, double gpuHoursAllocated, double gpuHoursIdle,
    List<PodPendingTime> pendingTimes, SortedMap<String, Integer> disruptionsByReason,
    SortedMap<String, Integer> evictionsByReason, SortedMap<String, ServiceMetrics> services,
    List<CardSpan> cardSpans) {

  public Metrics {
    series = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(series));
    costByNode = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(costByNode));
    costByNodePool = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(costByNodePool));
    pendingTimes = List.copyOf(pendingTimes);
    disruptionsByReason = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(disruptionsByReason));
    evictionsByReason = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(evictionsByReason));
    services = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(services));
    cardSpans = List.copyOf(cardSpans);
  }

  public Optional<TimeSeries> series(String name) {
    return Optional.ofNullable(series.get(name));
  }

  public Optional<ServiceMetrics> service(String workload) {
    return Optional.ofNullable(services.get(workload));
  }

  /**
   * The {@code q}-quantile (0..1, nearest rank) of how long pods waited for a node, over pods that
   * got one; empty when none did.
   */
  public Optional<java.time.Duration> pendingQuantile(double q) {
    List<java.time.Duration> waits = pendingTimes.stream().flatMap(p -> p.pending().stream()).sorted().toList();
    if (waits.isEmpty()) {
      return Optional.empty();
    }
    int rank = (int) Math.ceil(q * waits.size());
    return Optional.of(waits.get(Math.max(0, Math.min(waits.size() - 1, rank - 1))));
  }

  /** Pods still waiting for a node when the run ended. */
  public long neverScheduled() {
    return pendingTimes.stream().filter(p -> p.scheduled().isEmpty()).count();
  }

  public double totalCost() {
    return costByNodePool.values().stream().mapToDouble(Double::doubleValue).sum();
  }

  public static String nodesSeries(String nodePool) {
    return "nodes{nodepool=" + nodePool + "}";
  }

  /** Nodes of one instance type and capacity type, e.g. {@code nodes{kind=g5.xlarge on-demand}}. */
  public static String nodesOfKindSeries(String kind) {
    return "nodes{kind=" + kind + "}";
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
