package io.gpufleet.model.advise;

import java.util.Objects;

/**
 * One open-loop row of a sharing measurement: {@code tenants} processes of one workload on one card
 * under one mode, each offered Poisson arrivals at {@code ratePerSecond}.
 *
 * @param throughput requests per second completed, all tenants together
 * @param p50Ms      median latency, arrival to completion, over all requests
 * @param p99Ms      99th percentile latency over all requests
 */
public record OpenLoopRow(String workload, String mode, int tenants, double ratePerSecond, double throughput,
    double p50Ms, double p99Ms) {

  /**
   * Completed under this share of what was offered: the queue grew during the run. On the H100 runs
   * every point the card kept up with completed at least 98.8% of N × rate (Poisson arrivals in
   * 4 s vary), every point it did not at most 97.4%.
   */
  public static final double KEPT_UP = 0.98;

  public OpenLoopRow {
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(mode, "mode");
    if (tenants < 1 || !(ratePerSecond > 0) || !(throughput > 0) || !(p50Ms > 0) || !(p99Ms >= p50Ms)) {
      throw new IllegalArgumentException("implausible open-loop row " + workload + " " + mode + " N=" + tenants);
    }
  }

  public double offered() {
    return tenants * ratePerSecond;
  }

  /** Whether the card fell behind the arrivals in this run. */
  public boolean overloaded() {
    return throughput < KEPT_UP * offered();
  }
}
