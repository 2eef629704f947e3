package io.gpufleet.engine.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Open-loop latency of N identical tenants on one card, from the card's own closed-loop rows of the
 * same workload and mode ({@link CapacityCurve}), for memory-bound and launch-bound work alike.
 *
 * <p>Each tenant serves its requests one at a time, first come first served, with Poisson arrivals
 * ({@link TenantQueue}, M/G/1). A request's service time depends on how many co-tenants are busy
 * while it runs: with {@code k} others busy it takes {@code (k+1) / X(k+1)}, the time the closed-loop
 * rows measured with {@code k+1} tenants busy. That single rule carries each mode's mechanism as the
 * card measured it: time-slicing's context rotation and time slice (the {@code small} time-slicing
 * rows of the H100 stay flat at ~400 req/s from two tenants on, so a second busy tenant more than
 * doubles a request), MPS's overlap, and the 100/N % cap where it binds. Co-tenants are busy
 * independently, each with probability {@code b = λ·E[S]}, the fixed point of the mean-field loop
 * the engine's {@link SharingModel} also uses.
 *
 * <p>Capped MPS ({@code mps-capped}, each of N clients at 100/N % of the SMs): where the curve holds
 * the lone capped client's time {@code T(N)} ({@link CapacityCurve#cappedAloneMs}, the
 * {@code mps-capped-solo} rows), a request with {@code k} others busy takes
 * {@code max(T(N), (k+1) / X(k+1))}. Two limits hold at once and the slower one binds: the cap
 * limits the client itself whoever else runs (a static share of the SMs, as the MPS server enforces
 * it per client), and the card's capacity shared by the {@code k+1} busy limits each to its share
 * of it. Alone and with few busy the cap binds; with all N busy the closed-loop row does (its N
 * clients ran under that same cap, so {@code (N) / X(N) >= T(N)} on consistent rows). The rule takes
 * the slower of two lower bounds, so near the knee, where both are about equal, it may be optimistic;
 * it has no constant to fit. Without those rows the capped client alone takes the curve's lone time
 * {@code 1 / X(1)}, uncapped (what the coverage report and the check say).
 *
 * <p>Idle arrivals: where the curve holds a lone tenant's open-loop row ({@link CapacityCurve#idle}),
 * a request that finds its tenant idle also takes that {@link IdleArrival} extra time; one that waits
 * behind its tenant's earlier request does not. The extra time is the tenant's, so it takes no part
 * in the busy fixed point or the overload test.
 *
 * <p>Overload: N·λ at or above {@code X(N)} (all N busy is the card's capacity for them) is
 * {@link OpenLoopForecast.Regime#OVERLOADED}; within {@link #AT_CAPACITY} of it is
 * {@link OpenLoopForecast.Regime#AT_CAPACITY} (a closed-loop capacity differs run to run by up to
 * 5.4% on the H100, {@code data/h100-bench-sharing/README.md}); neither gets a finite p99.
 */
public final class MeasuredQueueing {
  private MeasuredQueueing() {}

  /** Load at which a prediction stops claiming latencies: the H100 capacity's run-to-run spread. */
  public static final double AT_CAPACITY = 0.95;

  private static final int MAX_ITERATIONS = 100_000;
  private static final double TOLERANCE = 1e-12;

  /** N tenants of the curve's workload, each offered {@code ratePerSecond} Poisson arrivals. */
  public static OpenLoopForecast predict(CapacityCurve curve, int tenants, double ratePerSecond) {
    return predict(curve, tenants, ratePerSecond, 1.0);
  }

  /**
   * As {@link #predict(CapacityCurve, int, double)}, with gaps between arrivals of SCV {@code arrivalScv};
   * under capped MPS each client at the device plugin's {@code 100 / tenants} %.
   */
  public static OpenLoopForecast predict(CapacityCurve curve, int tenants, double ratePerSecond, double arrivalScv) {
    return predict(curve, tenants, ratePerSecond, arrivalScv, tenants < 1 ? 100 : 100 / tenants);
  }

  /**
   * As {@link #predict(CapacityCurve, int, double, double)}, each client capped at
   * {@code threadPercentage} % of the SMs (a card dealt fewer replicas than the mode was set up for
   * keeps the mode's cap); the cap counts only where the curve holds lone capped rows.
   */
  public static OpenLoopForecast predict(CapacityCurve curve, int tenants, double ratePerSecond, double arrivalScv,
      int threadPercentage) {
    if (tenants < 1 || !(ratePerSecond > 0)) {
      throw new IllegalArgumentException("need tenants >= 1 and a positive rate, found " + tenants + ", " + ratePerSecond);
    }
    double load = tenants * ratePerSecond / curve.capacity(tenants);
    OptionalDouble capped = curve.cappedAloneMsAtShare(threadPercentage);
    double saturated = serviceMs(curve, capped, tenants);
    if (load >= 1) {
      return new OpenLoopForecast(OpenLoopForecast.Regime.OVERLOADED, load, saturated, inf(), inf(), inf());
    }
    if (load >= AT_CAPACITY) {
      return new OpenLoopForecast(OpenLoopForecast.Regime.AT_CAPACITY, load, saturated, inf(), inf(), inf());
    }
    List<Double> ms = new ArrayList<>(tenants);
    for (int k = 1; k <= tenants; k++) {
      ms.add(serviceMs(curve, capped, k));
    }
    double lambda = ratePerSecond / 1000;
    double busy = 0;
    for (int it = 0; it < MAX_ITERATIONS; it++) {
      double next = Math.min(1, lambda * new ServiceTimes(ms, binomial(tenants - 1, busy)).mean());
      boolean done = Math.abs(next - busy) < TOLERANCE;
      busy = next;
      if (done) {
        break;
      }
    }
    ServiceTimes service = new ServiceTimes(ms, binomial(tenants - 1, busy));
    TenantQueue q = new TenantQueue(lambda, arrivalScv, service, curve.idle());
    if (!q.stable()) {
      // Each tenant's own queue cannot keep up, though the card could: still an overload.
      return new OpenLoopForecast(OpenLoopForecast.Regime.OVERLOADED, load, service.mean(), inf(), inf(), inf());
    }
    return new OpenLoopForecast(OpenLoopForecast.Regime.STABLE, load, service.mean(), q.meanLatencyMs(),
        q.percentileMs(0.50), q.percentileMs(0.99));
  }

  /** A request's time with {@code busy} tenants in service, itself included: the slower of the curve and the cap. */
  private static double serviceMs(CapacityCurve curve, OptionalDouble cappedAloneMs, int busy) {
    double shared = curve.serviceMs(busy);
    return cappedAloneMs.isPresent() ? Math.max(shared, cappedAloneMs.getAsDouble()) : shared;
  }

  /** P(k of n co-tenants busy), each independently with probability p. */
  static List<Double> binomial(int n, double p) {
    double[] out = {1.0};
    for (int j = 0; j < n; j++) {
      double[] next = new double[out.length + 1];
      for (int k = 0; k < out.length; k++) {
        next[k] += out[k] * (1 - p);
        next[k + 1] += out[k] * p;
      }
      out = next;
    }
    List<Double> w = new ArrayList<>(out.length);
    for (double v : out) {
      w.add(v);
    }
    return w;
  }

  private static double inf() {
    return Double.POSITIVE_INFINITY;
  }
}
