package io.gpufleet.engine.perf;

/**
 * The extra time of a request that finds its tenant idle, beyond the closed-loop service time,
 * fitted to a lone tenant's open-loop row at light load ({@code bench-sharing --tenants 1 --rate R}):
 * {@code offsetMs}, then with probability {@code coldShare} an exponential of mean {@code tailMs}
 * more. With a cold share of 1 it is a shifted exponential; a share under 1 (offset 0) is the
 * form for a row whose p99 lies further beyond its p50 than any exponential from 0 reaches.
 *
 * <p>Why: back to back, a tenant's next request starts while the card and the tenant's thread are
 * busy. Sent after an idle gap, it starts cold. On the H100 runs a lone small request took 2.5 ms
 * back to back, while at light open-loop load the same card's p50 was 3.5 to 3.8 ms
 * ({@code data/h100-bench-sharing/run-3}); no closed-loop row measures that. A request that waits
 * behind its tenant's earlier one starts warm and pays nothing; the time is the tenant's own, not the
 * card's, so it does not take capacity from co-tenants.
 *
 * @param offsetMs  the least extra time, ms (0 or more)
 * @param tailMs    the mean of the exponential beyond it, ms (0 or more; 0 is a fixed extra time)
 * @param coldShare the share of idle arrivals that take the exponential part (in (0, 1]); the
 *                  others take the offset alone
 */
public record IdleArrival(double offsetMs, double tailMs, double coldShare) {

  /** No extra time: the closed-loop service time is the whole of an idle arrival's time. */
  public static final IdleArrival NONE = new IdleArrival(0, 0);

  /** The shifted exponential {@code offsetMs + Exp(mean tailMs)}: every idle arrival starts cold. */
  public IdleArrival(double offsetMs, double tailMs) {
    this(offsetMs, tailMs, 1);
  }

  private static final double LN2 = Math.log(2);
  private static final double LN100 = Math.log(100);
  private static final int FIT_ROUNDS = 8;

  public IdleArrival {
    if (!(offsetMs >= 0) || !(tailMs >= 0) || Double.isInfinite(offsetMs) || Double.isInfinite(tailMs)) {
      throw new IllegalArgumentException("an idle arrival's extra time needs a finite offset and tail >= 0, found "
          + offsetMs + " and " + tailMs);
    }
    if (!(coldShare > 0 && coldShare <= 1)) {
      throw new IllegalArgumentException("an idle arrival's cold share must be in (0, 1], found " + coldShare);
    }
  }

  /** Whether an idle arrival takes any extra time. */
  public boolean none() {
    return offsetMs == 0 && tailMs == 0;
  }

  public double meanMs() {
    return offsetMs + coldShare * tailMs;
  }

  /** P(extra time <= x). */
  public double cdf(double x) {
    if (x < offsetMs) {
      return 0;
    }
    return tailMs == 0 ? 1 : 1 - coldShare * Math.exp(-(x - offsetMs) / tailMs);
  }

  /**
   * The extra time whose median is {@code p50} and 99th percentile {@code p99} (each at least 0):
   * a shifted exponential where its offset comes out 0 or more; past that, where the p99 lies more
   * than ln 100 / ln 2 times the p50 from 0, the offset is 0 and only a share w of idle arrivals
   * take the exponential, w and its mean the pair that has both quantiles:
   * {@code w·e^(-p50/τ) = 1/2} and {@code w·e^(-p99/τ) = 1/100}. The two forms meet at w = 1, so
   * the fit moves smoothly from one to the other; a p50 of 0 is w = 1/2.
   */
  static IdleArrival ofQuantiles(double p50, double p99) {
    double lo = Math.max(0, p50);
    double hi = Math.max(lo, p99);
    double tail = (hi - lo) / (LN100 - LN2);
    double offset = lo - tail * LN2;
    if (offset >= 0) {
      return new IdleArrival(offset, tail);
    }
    // ln(100 w) / ln(2 w) = hi / lo, decreasing in w over (1/2, 1]: bisect.
    double w = 0.5;
    if (lo > 0) {
      double a = 0.5;
      double b = 1;
      for (int i = 0; i < 100 && b - a > 1e-15; i++) {
        double mid = (a + b) / 2;
        if (Math.log(100 * mid) - hi / lo * Math.log(2 * mid) > 0) {
          a = mid;
        } else {
          b = mid;
        }
      }
      w = b;
    }
    return new IdleArrival(0, hi / Math.log(100 * w), w);
  }

  /**
   * The least extra time under which one tenant, alone with service time {@code serviceMs} and
   * Poisson arrivals at {@code ratePerSecond}, has the lone open-loop row's p50 and p99: the row's own
   * light queueing is the model's, the rest is the idle arrival's. Each quantile of the extra time is
   * the least that reaches the row's (a bisection, the other quantile held), in a few alternating
   * rounds; where the row is no slower than the queue without extra time, there is none.
   */
  public static IdleArrival fit(double serviceMs, double ratePerSecond, double p50Ms, double p99Ms) {
    if (!(serviceMs > 0) || !(ratePerSecond > 0) || !(p50Ms > 0) || !(p99Ms >= p50Ms)) {
      throw new IllegalArgumentException("a lone open-loop row needs positive times and rate, found service "
          + serviceMs + " ms, " + ratePerSecond + "/s, p50 " + p50Ms + ", p99 " + p99Ms);
    }
    double lambda = ratePerSecond / 1000;
    ServiceTimes s = ServiceTimes.fixed(serviceMs);
    if (!new TenantQueue(lambda, 1, s).stable()) {
      throw new IllegalArgumentException("a lone open-loop row at " + ratePerSecond + "/s offers more than one tenant "
          + "serves at " + serviceMs + " ms a request");
    }
    double q50 = 0;
    double q99 = 0;
    for (int round = 0; round < FIT_ROUNDS; round++) {
      double hold99 = q99;
      q50 = least(0, x -> new TenantQueue(lambda, 1, s, ofQuantiles(x, Math.max(x, hold99))).percentileMs(0.50), p50Ms);
      double hold50 = q50;
      q99 = least(q50, x -> new TenantQueue(lambda, 1, s, ofQuantiles(hold50, x)).percentileMs(0.99), p99Ms);
    }
    return ofQuantiles(q50, q99);
  }

  /** The least x >= from with quantile(x) >= target (quantile nondecreasing in x), to a microsecond. */
  private static double least(double from, java.util.function.DoubleUnaryOperator quantile, double target) {
    if (quantile.applyAsDouble(from) >= target) {
      return from;
    }
    double lo = from;
    double hi = Math.max(from, 1) * 2;
    while (quantile.applyAsDouble(hi) < target) {
      lo = hi;
      hi *= 2;
      if (hi > 1e9) {
        throw new IllegalArgumentException("no idle extra time reaches a lone row's " + target + " ms");
      }
    }
    while (hi - lo > 1e-6) {
      double mid = (lo + hi) / 2;
      if (quantile.applyAsDouble(mid) >= target) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
  }
}
