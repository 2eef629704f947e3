package io.gpufleet.model.advise;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * One open-loop row of a sharing measurement: {@code tenants} processes of one workload on one card
 * under one mode, each offered Poisson arrivals at {@code ratePerSecond}.
 *
 * @param throughput requests per second completed, all tenants together
 * @param p50Ms      median latency, arrival to completion, over all requests
 * @param p99Ms      99th percentile latency over all requests
 * @param arrived    requests per second that arrived, all tenants together: the run's requests over
 *                   its length (every arrival is sent and completes); empty where not recorded
 */
public record OpenLoopRow(String workload, String mode, int tenants, double ratePerSecond, double throughput,
    double p50Ms, double p99Ms, OptionalDouble arrived) {

  /**
   * Completed under this share of what arrived: the run took over 1/0.98 of its length, the queue
   * still full at its end. Against the arrivals that came, not N × rate: Poisson arrivals of a few
   * seconds fall short of N × rate by chance (run-4 of the H100: big ×4 at 15/s got 6.7% fewer,
   * its p50 5 ms). On every H100 and H200 run, a point with a p50 under 20 ms took at most 1.007
   * of its length, one with a p50 over 100 ms at least 1.09.
   */
  public static final double KEPT_UP = 0.98;

  /** A row whose arrivals were not recorded: N × rate stands for them. */
  public OpenLoopRow(String workload, String mode, int tenants, double ratePerSecond, double throughput,
      double p50Ms, double p99Ms) {
    this(workload, mode, tenants, ratePerSecond, throughput, p50Ms, p99Ms, OptionalDouble.empty());
  }

  public OpenLoopRow {
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(arrived, "arrived");
    Objects.requireNonNull(mode, "mode");
    if (tenants < 1 || !(ratePerSecond > 0) || !(throughput > 0) || !(p50Ms > 0) || !(p99Ms >= p50Ms)) {
      throw new IllegalArgumentException("implausible open-loop row " + workload + " " + mode + " N=" + tenants);
    }
  }

  /** Requests per second offered: those that arrived where recorded, else N × rate. */
  public double offered() {
    return arrived.orElse(tenants * ratePerSecond);
  }

  /** Whether the card fell behind the arrivals in this run. */
  public boolean overloaded() {
    return throughput < KEPT_UP * offered();
  }
}
