package io.gpufleet.engine.perf;

/**
 * One tenant's own request queue: requests arrive at {@code ratePerMs} with inter-arrival SCV
 * {@code arrivalScv} and are served one at a time, first come first served (the tenant process
 * handles one request at a time, as {@code tenant.py} does), each taking a draw from
 * {@code service}. A GI/G/1 queue, approximated:
 * <ul>
 *   <li>mean wait: Kingman's {@code ρ/(1-ρ) · (ca² + cs²)/2 · E[S]}, exact (Pollaczek–Khinchine)
 *       for Poisson arrivals;</li>
 *   <li>wait distribution: {@code P(W > x) = min(ρ, C·e^(-γx))}, with γ the exact exponential decay
 *       rate of the GI/G/1 wait (the root of {@code E[e^(γS)]·E[e^(-γA)] = 1}, inter-arrival
 *       times taken as gamma with the given SCV) and C the larger of the Cramér–Lundberg constant
 *       of M/G/1, {@code (1-ρ) / (λ E[S e^(γS)] - 1)}, and {@code γ·E[W]} (the constant that gives
 *       the exponential tail Kingman's mean). For Poisson arrivals the first wins and the tail is
 *       exact; for bursty ones both C and {@code P(W>0) = ρ} are approximations.</li>
 *   <li>latency = wait + service, the two independent; a request that finds the tenant idle (no
 *       wait, probability {@code 1 - min(ρ, C)}) also takes the {@link IdleArrival} extra time.</li>
 * </ul>
 */
public record TenantQueue(double ratePerMs, double arrivalScv, ServiceTimes service, IdleArrival idle) {

  public TenantQueue {
    if (!(ratePerMs > 0) || !(arrivalScv > 0)) {
      throw new IllegalArgumentException("a queue needs a positive rate and arrival SCV");
    }
    java.util.Objects.requireNonNull(idle, "idle");
  }

  /** A queue whose idle arrivals take no extra time. */
  public TenantQueue(double ratePerMs, double arrivalScv, ServiceTimes service) {
    this(ratePerMs, arrivalScv, service, IdleArrival.NONE);
  }

  public double utilisation() {
    return ratePerMs * service.mean();
  }

  public boolean stable() {
    return utilisation() < 1;
  }

  /** Mean time from arrival to completion, ms; infinite when unstable. */
  public double meanLatencyMs() {
    if (!stable()) {
      return Double.POSITIVE_INFINITY;
    }
    double latency = kingmanLatencyMs();
    // Without an idle extra time, the old expression as it was: predictions stay bit for bit the same.
    if (idle.none()) {
      return latency;
    }
    double gamma = decayRate();
    return latency + (1 - Math.min(utilisation(), waitConstant(gamma))) * idle.meanMs();
  }

  /** Kingman's mean latency, wait plus service, the idle arrivals' extra time aside. */
  private double kingmanLatencyMs() {
    double rho = utilisation();
    double m = service.mean();
    return m + rho / (1 - rho) * (arrivalScv + service.scv()) / 2 * m;
  }

  /** C of the wait's tail {@code P(W > x) = min(ρ, C·e^(-γx))}. */
  private double waitConstant(double gamma) {
    return Math.max(tailConstant(gamma), gamma * (kingmanLatencyMs() - service.mean()));
  }

  /** The latency quantile {@code q} (0.5 for p50), ms; infinite when unstable. */
  public double percentileMs(double q) {
    if (!(q > 0 && q < 1)) {
      throw new IllegalArgumentException("quantile must be in (0, 1), found " + q);
    }
    if (!stable()) {
      return Double.POSITIVE_INFINITY;
    }
    double gamma = decayRate();
    double c = waitConstant(gamma);
    double lo = service.min();
    double hi = service.max() + 1.0 / gamma;
    while (cdf(hi, gamma, c) < q) {
      hi *= 2;
    }
    for (int i = 0; i < 200 && hi - lo > 1e-9 * hi; i++) {
      double mid = (lo + hi) / 2;
      if (cdf(mid, gamma, c) < q) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return hi;
  }

  private double cdf(double t, double gamma, double c) {
    double rho = utilisation();
    double p = 0;
    // The general sum below equals this one without an idle extra time, but not to the last bit:
    // kept so that predictions without lone rows stay bit for bit what they were.
    if (idle.none()) {
      for (int k = 0; k < service.ms().size(); k++) {
        double s = service.ms().get(k);
        if (t >= s) {
          p += service.weight().get(k) * (1 - Math.min(rho, c * Math.exp(-gamma * (t - s))));
        }
      }
      return p;
    }
    // P(W = 0) arrivals take the idle extra time on top of the service; the others wait, then serve.
    double waits = Math.min(rho, c);
    for (int k = 0; k < service.ms().size(); k++) {
      double s = service.ms().get(k);
      double w = service.weight().get(k);
      p += w * (1 - waits) * idle.cdf(t - s);
      if (t >= s) {
        p += w * (waits - Math.min(rho, c * Math.exp(-gamma * (t - s))));
      }
    }
    return p;
  }

  /** The root γ > 0 of log E[e^(γS)] − (1/ca²) log(1 + γ ca²/λ). */
  double decayRate() {
    double lo = 0;
    double hi = 1.0 / service.mean();
    while (logBalance(hi) < 0) {
      lo = hi;
      hi *= 2;
    }
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
      double mid = (lo + hi) / 2;
      if (logBalance(mid) < 0) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return (lo + hi) / 2;
  }

  private double logBalance(double g) {
    double top = Double.NEGATIVE_INFINITY;
    for (int k = 0; k < service.ms().size(); k++) {
      if (service.weight().get(k) > 0) {
        top = Math.max(top, g * service.ms().get(k));
      }
    }
    double sum = 0;
    for (int k = 0; k < service.ms().size(); k++) {
      sum += service.weight().get(k) * Math.exp(g * service.ms().get(k) - top);
    }
    return top + Math.log(sum) - Math.log1p(g * arrivalScv / ratePerMs) / arrivalScv;
  }

  private double tailConstant(double gamma) {
    double tilted = 0;
    for (int k = 0; k < service.ms().size(); k++) {
      double s = service.ms().get(k);
      tilted += service.weight().get(k) * s * Math.exp(gamma * s);
    }
    return (1 - utilisation()) / (ratePerMs * tilted - 1);
  }
}
