package io.gpufleet.sim.metrics;

import io.gpufleet.model.meta.ObjectRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.TreeMap;

/** Collects a run's measurements as the simulator reports changes; {@link #finish} yields {@link Metrics}. */
public final class MetricsRecorder {

  private final Map<String, String> claimKinds = new HashMap<>();
  private final TreeMap<String, Integer> kindNodes = new TreeMap<>();
  private final LinkedHashMap<String, List<CardSpan>> openCards = new LinkedHashMap<>();
  private final List<CardSpan> closedCards = new ArrayList<>();

  private final Map<String, List<TimeSeries.Sample>> series = new HashMap<>();
  private final Map<String, Double> last = new HashMap<>();
  private final Map<String, Running> running = new HashMap<>();
  private final TreeMap<String, Double> costByNode = new TreeMap<>();
  private final TreeMap<String, Double> costByPool = new TreeMap<>();
  private final Map<String, Double> poolRate = new HashMap<>();
  private final Map<String, Integer> poolNodes = new HashMap<>();
  private final Map<String, double[]> nodeGpus = new HashMap<>();
  /** Each GPU node's NodeClaim and cards, for charging its price to the pods on its cards. */
  private final Map<String, String> gpuNodeClaims = new HashMap<>();
  private final Map<String, Integer> gpuNodeCards = new HashMap<>();
  private final Map<String, Double> claimPrices = new HashMap<>();
  private double gpusTotal;
  private double gpusAllocated;
  private final Map<String, PodPendingTime> pending = new LinkedHashMap<>();
  private final TreeMap<String, Integer> disruptions = new TreeMap<>();
  /** Deletions by reason and the disruption method behind them, for a scenario's expectations. */
  private final Map<Disrupted, Integer> disrupted = new HashMap<>();
  private final TreeMap<String, Integer> evictions = new TreeMap<>();
  private final Map<ObjectRef, Service> services = new HashMap<>();

  private record Running(String pool, double price, Instant since) {}

  private record Disrupted(String reason, Optional<String> method) {}

  /** One service's running tallies. */
  private static final class Service {
    final Traffic traffic;
    int ready;
    int desired;
    Instant firstReady;
    Instant allReady;
    int mostReady;
    int minReady = Integer.MAX_VALUE;
    Instant outageSince;
    double outageSeconds;
    double lost;
    int killed;

    Service(Traffic traffic) {
      this.traffic = traffic;
    }
  }

  /** A pod's containers were given devices: a span opens per card (or MIG slice) it holds. */
  public void cardsAssigned(String pod, String node, List<CardSpan.Card> cards, Instant now) {
    for (CardSpan.Card c : cards) {
      openCards.computeIfAbsent(pod, k -> new ArrayList<>()).add(new CardSpan(pod, node, c, now, Optional.empty()));
    }
  }

  /** The pod left its node: its spans close. */
  public void cardsReleased(String pod, Instant now) {
    List<CardSpan> open = openCards.remove(pod);
    if (open != null) {
      for (CardSpan c : open) {
        closedCards.add(new CardSpan(c.pod(), c.node(), c.card(), c.start(), Optional.of(now)));
      }
    }
  }

  public void gauge(String name, Instant now, double value) {
    Double prev = last.get(name);
    if (prev != null && prev == value) {
      return;
    }
    last.put(name, value);
    List<TimeSeries.Sample> s = series.computeIfAbsent(name, k -> new ArrayList<>());
    if (!s.isEmpty() && s.getLast().time().equals(now)) {
      s.set(s.size() - 1, new TimeSeries.Sample(now, value));
    } else {
      s.add(new TimeSeries.Sample(now, value));
    }
  }

  /** A NodeClaim starts billing; {@code kind} is its instance type and capacity type, e.g. {@code g5.xlarge on-demand}. */
  public void claimLaunched(String claim, String pool, String kind, double price, Instant now) {
    running.put(claim, new Running(pool, price, now));
    claimPrices.put(claim, price);
    claimKinds.put(claim, kind);
    kindNodes.merge(kind, 1, Integer::sum);
    gauge(Metrics.nodesOfKindSeries(kind), now, kindNodes.get(kind));
    poolRate.merge(pool, price, Double::sum);
    poolNodes.merge(pool, 1, Integer::sum);
    gauge(Metrics.costRateSeries(pool), now, poolRate.get(pool));
    gauge(Metrics.nodesSeries(pool), now, poolNodes.get(pool));
  }

  public void claimGone(String claim, Instant now) {
    Running r = running.remove(claim);
    if (r == null) {
      return;
    }
    String kind = claimKinds.remove(claim);
    if (kind != null) {
      kindNodes.merge(kind, -1, Integer::sum);
      gauge(Metrics.nodesOfKindSeries(kind), now, kindNodes.get(kind));
    }
    bill(claim, r, now);
    poolRate.merge(r.pool(), -r.price(), Double::sum);
    poolNodes.merge(r.pool(), -1, Integer::sum);
    gauge(Metrics.costRateSeries(r.pool()), now, Math.max(0, poolRate.get(r.pool())));
    gauge(Metrics.nodesSeries(r.pool()), now, poolNodes.get(r.pool()));
  }

  private void bill(String claim, Running r, Instant until) {
    double cost = r.price() * Duration.between(r.since(), until).toMillis() / 3_600_000.0;
    costByNode.merge(claim, cost, Double::sum);
    costByPool.merge(r.pool(), cost, Double::sum);
  }

  /** A node's physical GPUs and how many of them pods have (fractions under sharing); its NodeClaim where it has one. */
  public void nodeGpus(String node, Optional<String> claim, double total, double allocated, Instant now) {
    if (total > 0) {
      claim.ifPresent(c -> gpuNodeClaims.put(node, c));
      gpuNodeCards.put(node, (int) total);
    }
    double[] prev = nodeGpus.put(node, new double[] {total, allocated});
    if (prev != null) {
      gpusTotal -= prev[0];
      gpusAllocated -= prev[1];
    }
    gpusTotal += total;
    gpusAllocated += allocated;
    gauge(Metrics.GPUS_TOTAL, now, round(gpusTotal));
    gauge(Metrics.GPUS_ALLOCATED, now, round(gpusAllocated));
  }

  public void nodeGone(String node, Instant now) {
    double[] prev = nodeGpus.remove(node);
    if (prev != null) {
      gpusTotal -= prev[0];
      gpusAllocated -= prev[1];
      gauge(Metrics.GPUS_TOTAL, now, round(gpusTotal));
      gauge(Metrics.GPUS_ALLOCATED, now, round(gpusAllocated));
    }
  }

  private static double round(double v) {
    return Math.round(v * 1e6) / 1e6;
  }

  public void podCreated(String pod, Optional<String> workload, Instant now) {
    pending.putIfAbsent(pod, new PodPendingTime(pod, workload, now, Optional.empty()));
  }

  public void podScheduled(String pod, Instant now) {
    PodPendingTime p = pending.get(pod);
    if (p != null && p.scheduled().isEmpty()) {
      pending.put(pod, new PodPendingTime(pod, p.workload(), p.created(), Optional.of(now)));
    }
  }

  /** A pod its kubelet refused never waits for a node: it leaves the pending times. */
  public void podFailed(String pod) {
    PodPendingTime p = pending.get(pod);
    if (p != null && p.scheduled().isEmpty()) {
      pending.remove(pod);
    }
  }

  /** A NodeClaim started deleting, for this reason, by this disruption method's command where one did it. */
  public void disruption(String reason, Optional<String> method) {
    disruptions.merge(reason, 1, Integer::sum);
    disrupted.merge(new Disrupted(reason, method), 1, Integer::sum);
  }

  /** NodeClaims deleted so far, of this reason and by this method, each only where given. */
  public int disruptions(Optional<String> reason, Optional<String> method) {
    int n = 0;
    for (var e : disrupted.entrySet()) {
      if (reason.map(e.getKey().reason()::equals).orElse(true)
          && method.map(m -> e.getKey().method().map(m::equals).orElse(false)).orElse(true)) {
        n += e.getValue();
      }
    }
    return n;
  }

  /** Pods evicted so far, of this reason where given. */
  public int evictions(Optional<String> reason) {
    return reason.map(r -> evictions.getOrDefault(r, 0))
        .orElseGet(() -> evictions.values().stream().mapToInt(Integer::intValue).sum());
  }

  /** Dollars the run's instances have cost up to {@code now}: those gone, and those running billed to now. */
  public double costSoFar(Instant now) {
    double total = 0;
    for (double c : costByPool.values()) {
      total += c;
    }
    for (Running r : running.values()) {
      total += r.price() * Duration.between(r.since(), now).toMillis() / 3_600_000.0;
    }
    return total;
  }

  public void eviction(String reason) {
    evictions.merge(reason, 1, Integer::sum);
  }

  /** Registers a workload's traffic model (once, when it appears). */
  public void service(ObjectRef workload, Traffic traffic) {
    services.putIfAbsent(workload, new Service(traffic));
  }

  /** A workload's Ready count and desired replicas changed. */
  public void serviceReady(ObjectRef workload, int ready, int desired, Instant now) {
    Service s = services.get(workload);
    if (s == null) {
      return;
    }
    gauge(Metrics.readySeries(workload.toString()), now, ready);
    closeOutage(s, now);
    s.ready = ready;
    s.desired = desired;
    s.mostReady = Math.max(s.mostReady, ready);
    if (ready > 0 && s.firstReady == null) {
      s.firstReady = now;
    }
    if (desired > 0 && ready >= desired && s.allReady == null) {
      s.allReady = now;
    }
    if (s.allReady != null && desired > 0) {
      s.minReady = Math.min(s.minReady, ready);
    }
    if (s.firstReady != null && desired > 0 && ready == 0) {
      s.outageSince = now;
    }
  }

  private void closeOutage(Service s, Instant now) {
    if (s.outageSince != null) {
      double secs = Duration.between(s.outageSince, now).toMillis() / 1000.0;
      s.outageSeconds += secs;
      s.lost += secs * s.traffic.requestsPerSecond();
      s.outageSince = null;
    }
  }

  /** A pod of a workload died with requests in flight. */
  public void podKilled(ObjectRef workload, double inFlight) {
    Service s = services.get(workload);
    if (s != null) {
      s.killed++;
      s.lost += inFlight;
    }
  }

  public Traffic traffic(ObjectRef workload) {
    Service s = services.get(workload);
    return s == null ? Traffic.NONE : s.traffic;
  }

  public Metrics finish(Instant end) {
    for (var e : running.entrySet()) {
      bill(e.getKey(), e.getValue(), end);
      running.put(e.getKey(), new Running(e.getValue().pool(), e.getValue().price(), end));
    }
    TreeMap<ObjectRef, ServiceMetrics> svc = new TreeMap<>();
    for (var e : services.entrySet()) {
      Service s = e.getValue();
      closeOutage(s, end);
      if (s.ready == 0 && s.firstReady != null && s.desired > 0) {
        s.outageSince = end;
      }
      boolean counted = !s.traffic.equals(Traffic.NONE) && s.firstReady != null;
      svc.put(e.getKey(), new ServiceMetrics(e.getKey(), s.traffic, Optional.ofNullable(s.firstReady),
          Optional.ofNullable(s.allReady), s.mostReady,
          s.minReady == Integer.MAX_VALUE ? OptionalInt.empty() : OptionalInt.of(s.minReady),
          s.outageSeconds, counted ? OptionalDouble.of(s.lost) : OptionalDouble.empty(),
          s.killed));
    }
    TreeMap<String, TimeSeries> out = new TreeMap<>();
    series.forEach((k, v) -> out.put(k, new TimeSeries(k, v)));
    Instant start = series.values().stream().filter(l -> !l.isEmpty()).map(l -> l.getFirst().time())
        .min(Instant::compareTo).orElse(end);
    double allocated = out.containsKey(Metrics.GPUS_ALLOCATED)
        ? out.get(Metrics.GPUS_ALLOCATED).hoursIntegral(start, end) : 0;
    double total = out.containsKey(Metrics.GPUS_TOTAL) ? out.get(Metrics.GPUS_TOTAL).hoursIntegral(start, end) : 0;
    List<CardSpan> cards = new ArrayList<>(closedCards);
    openCards.values().forEach(cards::addAll);
    cards.sort(Comparator.comparing(CardSpan::start).thenComparing(CardSpan::pod)
        .thenComparing(c -> c.card().label()));
    TreeMap<String, Double> gpuPrice = new TreeMap<>();
    double gpuNodeCost = 0;
    for (var e : gpuNodeClaims.entrySet()) {
      gpuPrice.put(e.getKey(), claimPrices.getOrDefault(e.getValue(), 0.0) / gpuNodeCards.get(e.getKey()));
      gpuNodeCost += costByNode.getOrDefault(e.getValue(), 0.0);
    }
    return new Metrics(out, costByNode, costByPool, allocated, total - allocated, new ArrayList<>(pending.values()),
        disruptions, evictions, svc, cards, gpuPrice, gpuNodeCost, end);
  }
}
