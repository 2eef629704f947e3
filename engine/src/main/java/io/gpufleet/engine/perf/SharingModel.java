package io.gpufleet.engine.perf;

import io.gpufleet.model.advise.Boundness;
import io.gpufleet.model.deviceplugin.SharingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The performance of tenants that share one device, under open-loop load ({@link #openLoop}) or
 * sending requests back to back ({@link #closedLoop}, what the H200 calibration rows measure).
 *
 * <p>Memory-bound tenants interfere through their bursts. Tenant {@code i}'s burst meets a random
 * number {@code K} of co-tenant bursts; the model treats co-tenants as independent, each in a burst
 * with probability {@code B_j} (a mean-field approximation), so {@code K} is Poisson-binomial and
 * the burst stretches by {@code E[stretch(K)]}. {@code B_j = rate_j × D_j × E[stretch]} closes the
 * loop; it is solved by iterating from the no-contention point, which converges upward to the
 * least fixed point. Launch-bound tenants do not slow each other until the device's capacity runs
 * out; then (closed loop) they stretch together until the capacity is exactly used, or (open loop)
 * the device cannot keep up.
 *
 * <p>Weak where the independence is: with few, heavily loaded tenants bursts are correlated in time,
 * and the mean-field overstates how often they collide (p50 at 80–90% load is pessimistic; see the
 * comparison with an exact simulation of the same mechanics in the tests). Memory-bound and
 * launch-bound tenants on one device only meet through its total capacity.
 */
public record SharingModel(Calibration calibration, Optional<SharingCurves> measured) {

  private static final int MAX_ITERATIONS = 100_000;
  private static final double TOLERANCE = 1e-12;

  public SharingModel {
    Objects.requireNonNull(calibration, "calibration");
    Objects.requireNonNull(measured, "measured");
  }

  /** The fitted constants alone, for every card. */
  public SharingModel(Calibration calibration) {
    this(calibration, Optional.empty());
  }

  /**
   * Each tenant's throughput and latency percentiles under its open-loop rate. Replicas of one
   * workload on the card the {@code measured} rows come from, under a mode those rows cover, queue
   * on that card's own closed-loop capacity ({@link MeasuredQueueing}); everything else on the
   * fitted constants.
   */
  public CardForecast openLoop(Colocation c) {
    Optional<CardForecast> own = measured.flatMap(m -> onMeasuredCurve(m, c));
    if (own.isPresent()) {
      return own.get();
    }
    Solution s = solve(c, false);
    List<TenantForecast> out = new ArrayList<>();
    // Tenants with the same demand, load and collision distribution (replicas of one workload) queue
    // alike: solve each such queue once. The array in the key compares by identity, which is what
    // solve shares between them.
    Map<QueueKey, TenantForecast> queues = new HashMap<>();
    for (int i = 0; i < s.tenants.size(); i++) {
      Tenant t = c.tenants().get(i);
      int at = i;
      TenantForecast f = queues.computeIfAbsent(new QueueKey(s.tenants.get(i), t.ratePerSecond(), t.arrivalScv(),
          s.collisions[i]), k -> queue(s, at, t));
      out.add(f.tenant().equals(t.name()) ? f : f.withTenant(t.name()));
    }
    return new CardForecast(c.device(), c.mode(), out, s.load);
  }

  private static Optional<CardForecast> onMeasuredCurve(SharingCurves m, Colocation c) {
    Tenant first = c.tenants().getFirst();
    boolean replicas = c.tenants().stream().allMatch(t -> t.demand().equals(first.demand())
        && t.ratePerSecond() == first.ratePerSecond() && t.arrivalScv() == first.arrivalScv());
    if (!replicas || !c.device().gpu().id().equals(m.gpu())) {
      return Optional.empty();
    }
    ServiceDemand d = first.demand();
    return m.scaled(d.bound(), c.mode(), d.aloneMs()).map(curve -> {
      int n = c.tenants().size();
      OpenLoopForecast f = MeasuredQueueing.predict(curve, n, first.ratePerSecond(), first.arrivalScv(),
          threadPercentage(c.mode()));
      boolean stable = f.stable();
      double throughput = stable ? first.ratePerSecond() : Math.min(first.ratePerSecond(), curve.capacity(n) / n);
      List<TenantForecast> out = new ArrayList<>(n);
      for (Tenant t : c.tenants()) {
        out.add(new TenantForecast(t.name(), t.ratePerSecond(), throughput, f.serviceMs(), f.meanMs(), f.p50Ms(),
            f.p99Ms(), Math.min(1.0, first.ratePerMs() * f.serviceMs()), stable));
      }
      return new CardForecast(c.device(), c.mode(), out, f.load());
    });
  }

  /** Each client's share of the SMs in percent under a mode: the MPS cap, else the whole (100). */
  private static int threadPercentage(SharingMode mode) {
    return switch (mode) {
      case SharingMode.Mps m -> m.activeThreadPercentage();
      case SharingMode.Mig g -> threadPercentage(g.within());
      case SharingMode.TimeSlicing t -> 100;
      case SharingMode.Exclusive e -> 100;
    };
  }

  private record QueueKey(ServiceDemand demand, double ratePerSecond, double arrivalScv, double[] collisions) { }

  private static TenantForecast queue(Solution s, int i, Tenant t) {
    ServiceTimes service = s.serviceTimes(i);
    TenantQueue q = new TenantQueue(t.ratePerMs(), t.arrivalScv(), service);
    boolean stable = s.load < 1 && q.stable();
    double mean = service.mean();
    return new TenantForecast(t.name(), t.ratePerSecond(),
        stable ? t.ratePerSecond() : Math.min(t.ratePerSecond(), 1000.0 / mean), mean,
        stable ? q.meanLatencyMs() : Double.POSITIVE_INFINITY,
        stable ? q.percentileMs(0.50) : Double.POSITIVE_INFINITY,
        stable ? q.percentileMs(0.99) : Double.POSITIVE_INFINITY,
        Math.min(1.0, q.utilisation()), stable);
  }

  /** Throughput and mean latency when every tenant sends its next request as the last completes. */
  public ClosedLoopForecast closedLoop(Colocation c) {
    Solution s = solve(c, true);
    List<Double> x = new ArrayList<>();
    List<Double> r = new ArrayList<>();
    for (int i = 0; i < s.tenants.size(); i++) {
      double latency = s.serviceTimes(i).mean();
      x.add(1000.0 / latency);
      r.add(latency);
    }
    return new ClosedLoopForecast(x, r);
  }

  /** The tenants' effective demands, burst probabilities and stretches at the fixed point. */
  private record Solution(Contention contention, List<ServiceDemand> tenants, double[][] collisions,
      double launchStretch, double load) {

    ServiceTimes serviceTimes(int i) {
      ServiceDemand d = tenants.get(i);
      if (d.bound() == Boundness.LAUNCH) {
        return ServiceTimes.fixed(d.hostMs() + d.gpuMs() * launchStretch);
      }
      double[] p = collisions[i];
      List<Double> ms = new ArrayList<>(p.length);
      List<Double> w = new ArrayList<>(p.length);
      for (int k = 0; k < p.length; k++) {
        ms.add(d.hostMs() + d.gpuMs() * contention.burstStretch(k));
        w.add(p[k]);
      }
      return new ServiceTimes(ms, w);
    }
  }

  private Solution solve(Colocation c, boolean closed) {
    Contention k = Contention.of(c.mode(), calibration);
    boolean shared = c.shared();
    int n = c.tenants().size();
    List<ServiceDemand> d = new ArrayList<>(n);
    for (Tenant t : c.tenants()) {
      d.add(t.demand().bound() == Boundness.LAUNCH ? k.launchDemand(t.demand()) : t.demand());
    }
    double[] work = new double[n];
    double[] rate = new double[n];
    for (int i = 0; i < n; i++) {
      work[i] = k.cardWork(d.get(i), shared);
      rate[i] = c.tenants().get(i).ratePerMs();
    }
    double[] busy = new double[n];
    double[] stretch = new double[n];
    for (int i = 0; i < n; i++) {
      stretch[i] = 1;
      busy[i] = burst(d.get(i), rate[i], 1, closed);
    }
    double launchStretch = 1;
    double[][] collisions = new double[n][];
    for (int it = 0; it < MAX_ITERATIONS; it++) {
      double change = 0;
      Map<Long, double[]> othersByBusy = new HashMap<>();
      Map<double[], Double> stretchOf = new IdentityHashMap<>();
      for (int i = 0; i < n; i++) {
        if (d.get(i).bound() != Boundness.MEMORY) {
          continue;
        }
        double[] others = othersInBurst(busy, i, d, othersByBusy);
        collisions[i] = others;
        stretch[i] = stretchOf.computeIfAbsent(others, p -> {
          double s = 0;
          for (int j = 0; j < p.length; j++) {
            s += p[j] * k.burstStretch(j);
          }
          return s;
        });
      }
      if (closed) {
        launchStretch = closedLaunchStretch(d, work, stretch);
      }
      for (int i = 0; i < n; i++) {
        double s = d.get(i).bound() == Boundness.MEMORY ? stretch[i] : launchStretch;
        double b = burst(d.get(i), rate[i], s, closed);
        change = Math.max(change, Math.abs(b - busy[i]));
        busy[i] = b;
      }
      if (change < TOLERANCE) {
        break;
      }
    }
    Map<Long, double[]> othersByBusy = new HashMap<>();
    for (int i = 0; i < n; i++) {
      if (d.get(i).bound() == Boundness.MEMORY) {
        collisions[i] = othersInBurst(busy, i, d, othersByBusy);
      }
    }
    double load = 0;
    for (int i = 0; i < n; i++) {
      ServiceDemand e = d.get(i);
      double s = e.bound() == Boundness.MEMORY ? stretch[i] : launchStretch;
      double r = closed ? 1.0 / (e.hostMs() + e.gpuMs() * s) : rate[i];
      load += r * work[i];
    }
    return new Solution(k, d, collisions, launchStretch, load);
  }

  /** Share of time a tenant's GPU work is running: its completion rate times its stretched GPU time. */
  private static double burst(ServiceDemand d, double rate, double stretch, boolean closed) {
    double service = d.hostMs() + d.gpuMs() * stretch;
    double completions = closed ? 1.0 / service : Math.min(rate, 1.0 / service);
    return completions * d.gpuMs() * stretch;
  }

  /**
   * Back to back, launch-bound tenants run unhindered until the device's capacity is used up; past
   * that every one stretches its GPU time alike until the device is exactly full. Memory-bound
   * co-tenants take their share of the capacity first.
   */
  private static double closedLaunchStretch(List<ServiceDemand> d, double[] work, double[] stretch) {
    double room = 1;
    boolean any = false;
    for (int i = 0; i < d.size(); i++) {
      ServiceDemand e = d.get(i);
      if (e.bound() == Boundness.MEMORY) {
        room -= work[i] / (e.hostMs() + e.gpuMs() * stretch[i]);
      } else {
        any = true;
      }
    }
    room = Math.max(room, 1e-9);
    if (!any || launchLoad(d, work, 1) <= room) {
      return 1;
    }
    double lo = 1;
    double hi = 2;
    while (launchLoad(d, work, hi) > room && hi < 1e12) {
      lo = hi;
      hi *= 2;
    }
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
      double mid = (lo + hi) / 2;
      if (launchLoad(d, work, mid) > room) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return hi;
  }

  private static double launchLoad(List<ServiceDemand> d, double[] work, double launchStretch) {
    double load = 0;
    for (int i = 0; i < d.size(); i++) {
      ServiceDemand e = d.get(i);
      if (e.bound() == Boundness.LAUNCH) {
        load += work[i] / (e.hostMs() + e.gpuMs() * launchStretch);
      }
    }
    return load;
  }

  /**
   * {@link #poissonBinomial} for tenant {@code self}, shared by every memory-bound tenant with the
   * same busy share: their "others" are the same multiset, so replicas of one workload (the usual
   * case, up to thousands per card in {@code advise}) cost one O(n) pass per iteration, not n.
   */
  private static double[] othersInBurst(double[] busy, int self, List<ServiceDemand> d, Map<Long, double[]> memo) {
    return memo.computeIfAbsent(Double.doubleToLongBits(busy[self]), k -> poissonBinomial(busy, self, d));
  }

  /** Distribution of how many other memory-bound tenants are in a burst, each independently. */
  private static double[] poissonBinomial(double[] busy, int self, List<ServiceDemand> d) {
    double[] p = {1.0};
    for (int j = 0; j < busy.length; j++) {
      if (j == self || d.get(j).bound() != Boundness.MEMORY) {
        continue;
      }
      double b = Math.min(1.0, Math.max(0.0, busy[j]));
      double[] next = new double[p.length + 1];
      for (int k = 0; k < p.length; k++) {
        next[k] += p[k] * (1 - b);
        next[k + 1] += p[k] * b;
      }
      p = next;
    }
    return p;
  }
}
