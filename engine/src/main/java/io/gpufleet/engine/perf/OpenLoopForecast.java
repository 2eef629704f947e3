package io.gpufleet.engine.perf;

/**
 * What {@link MeasuredQueueing} predicts for N tenants of one workload, each with Poisson arrivals.
 *
 * @param load      offered requests per second over the card's capacity with all N busy
 * @param serviceMs mean time a request takes once started, co-tenants included
 * @param meanMs    mean latency, arrival to completion; infinite unless {@link Regime#STABLE}
 * @param p50Ms  median latency, arrival to completion; infinite unless {@link Regime#STABLE}
 * @param p99Ms  99th percentile latency; infinite unless {@link Regime#STABLE}
 */
public record OpenLoopForecast(Regime regime, double load, double serviceMs, double meanMs, double p50Ms,
    double p99Ms) {

  /** Whether the card keeps up. */
  public enum Regime {
    /** Offered below {@link MeasuredQueueing#AT_CAPACITY} of capacity: latencies are predicted. */
    STABLE,
    /**
     * Within the capacity's own measurement noise of it: the queue may or may not grow, so no
     * latency is claimed and the advisor treats the option as unstable.
     */
    AT_CAPACITY,
    /** Offered at or above capacity: the queue grows without bound. */
    OVERLOADED
  }

  public boolean stable() {
    return regime == Regime.STABLE;
  }
}
