package io.gpufleet.sim.metrics;

import io.gpufleet.model.meta.ObjectRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A run's measurements: time series (node counts and spend per NodePool, GPUs allocated and in the
 * fleet, pending pods, Ready pods per workload), cost per node and NodePool (instance-seconds ×
 * price), GPU-hours allocated and idle and each namespace's share of them ({@link TeamCost}), pending time per pod, disruptions and evictions by reason,
 * what each service's users saw, and which pod held which card when.
 */
public record Metrics(SortedMap<String, TimeSeries> series, SortedMap<String, Double> costByNode,
    SortedMap<String, Double> costByNodePool, double gpuHoursAllocated, double gpuHoursIdle,
    List<PodPendingTime> pendingTimes, SortedMap<String, Integer> disruptionsByReason,
    SortedMap<String, Integer> evictionsByReason, SortedMap<ObjectRef, ServiceMetrics> services,
    List<CardSpan> cardSpans, SortedMap<String, Double> gpuPricePerHour, double gpuNodeCost, Instant end) {

  public Metrics {
    series = Collections.unmodifiableSortedMap(new TreeMap<>(series));
    costByNode = Collections.unmodifiableSortedMap(new TreeMap<>(costByNode));
    costByNodePool = Collections.unmodifiableSortedMap(new TreeMap<>(costByNodePool));
    pendingTimes = List.copyOf(pendingTimes);
    disruptionsByReason = Collections.unmodifiableSortedMap(new TreeMap<>(disruptionsByReason));
    evictionsByReason = Collections.unmodifiableSortedMap(new TreeMap<>(evictionsByReason));
    services = Collections.unmodifiableSortedMap(new TreeMap<>(services));
    cardSpans = List.copyOf(cardSpans);
    gpuPricePerHour = Collections.unmodifiableSortedMap(new TreeMap<>(gpuPricePerHour));
  }

  /** What each namespace's pods held of the cards, and its cost: a sweep over every card span, so a caller computes it once. */
  public TeamCost teamCost() {
    return teamCost(TeamCost::namespace);
  }

  /** What each team's pods held of the cards, and its cost, {@code teamOf} a pod's key naming its team. */
  public TeamCost teamCost(Function<String, String> teamOf) {
    return TeamCost.of(cardSpans, teamOf, gpuPricePerHour, end, gpuHoursAllocated + gpuHoursIdle, gpuNodeCost);
  }

  public Optional<TimeSeries> series(String name) {
    return Optional.ofNullable(series.get(name));
  }

  public Optional<ServiceMetrics> service(ObjectRef workload) {
    return Optional.ofNullable(services.get(workload));
  }

  /**
   * A pending-time quantile over every pod created in the run. Pods still pending at the end count
   * with their wait so far, a lower bound; when such a censored wait could have moved the quantile,
   * {@code atLeast} is set and the true quantile is at least {@code waited}.
   */
  public record PendingQuantile(Duration waited, boolean atLeast) {}

  /**
   * The {@code q}-quantile (0..1, nearest rank) of how long pods waited for a node, over all pods,
   * those still pending counted as censored at the end of the run; empty when no pod was created.
   */
  public Optional<PendingQuantile> pendingQuantile(double q) {
    return pendingQuantiles(q).getFirst();
  }

  /**
   * {@link #pendingQuantile} of each of {@code qs}, in order, from one sort of the waits (a report
   * shows several; each sorting every pod's wait again cost a sort of 100,000 for each).
   */
  public List<Optional<PendingQuantile>> pendingQuantiles(double... qs) {
    List<Duration> waits = pendingTimes.stream().map(p -> p.waitedBy(end)).sorted().toList();
    List<Optional<PendingQuantile>> out = new ArrayList<>(qs.length);
    if (waits.isEmpty()) {
      for (double q : qs) {
        out.add(Optional.empty());
      }
      return out;
    }
    List<Duration> known = pendingTimes.stream().filter(p -> p.scheduled().isPresent())
        .map(p -> p.pending().get()).sorted().toList();
    for (double q : qs) {
      int rank = Math.max(1, Math.min(waits.size(), (int) Math.ceil(q * waits.size())));
      Duration value = waits.get(rank - 1);
      // Exact when at least `rank` pods are known to have waited no longer: a censored pod's true
      // wait may exceed its bound, but those cannot push the rank-th smallest wait below `value`.
      out.add(Optional.of(new PendingQuantile(value, atMost(known, value) < rank)));
    }
    return out;
  }

  /** How many of the sorted {@code waits} are at most {@code value}. */
  private static int atMost(List<Duration> waits, Duration value) {
    int lo = 0;
    int hi = waits.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (waits.get(mid).compareTo(value) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Pods still waiting for a node when the run ended: their pending times are censored. */
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
