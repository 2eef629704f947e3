package io.gpufleet.nvml.bench;

import io.gpufleet.model.advise.ClosedLoopRow;
import io.gpufleet.model.advise.OpenLoopRow;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * One configuration's result, all tenants together: the row shape of the H200 measurement's table
 * and of {@link io.gpufleet.model.advise.ClosedLoopRow}.
 *
 * @param ratePerSecond     each tenant's Poisson rate; 0 for closed loop
 * @param threadPercentage  each client's SM cap under {@code mps-capped}
 * @param throughput        requests completed per second: all requests over the longest tenant's loop time
 * @param p50Ms             median latency over every request of every tenant
 * @param gpuMsPerRequest   device time between each request's events, averaged: it includes the
 *     time other tenants' kernels held the card in between
 */
public record SharingRow(String workload, String mode, int tenants, Optional<Integer> threadPercentage,
    double ratePerSecond, int requests, double throughput, double p50Ms, double p99Ms, double gpuMsPerRequest) {

  /** Aggregates the tenants' runs as {@code summarize.py} of the H200 measurement does. */
  public static SharingRow of(TenantKernel kernel, BenchMode mode, int tenants, double ratePerSecond,
      List<TenantRun> runs) {
    List<Long> all = new ArrayList<>();
    long longest = 0;
    double gpu = 0;
    for (TenantRun r : runs) {
      all.addAll(r.latencyNanos());
      longest = Math.max(longest, r.elapsedNanos());
      gpu += r.gpuMillis();
    }
    if (all.isEmpty() || longest == 0) {
      throw new BenchFailure(kernel.name() + " " + mode.label() + " N=" + tenants + ": no request completed");
    }
    Collections.sort(all);
    return new SharingRow(kernel.name(), mode.label(), tenants, mode.threadPercentage(tenants), ratePerSecond,
        all.size(), all.size() / (longest / 1e9), quantile(all, 0.50) / 1e6, quantile(all, 0.99) / 1e6,
        gpu / all.size());
  }

  /** The value at index ⌊p·n⌋ of the sorted list (capped at the last), as {@code summarize.py} takes it. */
  static long quantile(List<Long> sorted, double p) {
    return sorted.get(Math.min(sorted.size() - 1, (int) (p * sorted.size())));
  }

  public boolean closedLoop() {
    return ratePerSecond == 0;
  }

  /** This closed-loop row as the performance model reads it. */
  public ClosedLoopRow toClosedLoopRow() {
    return new ClosedLoopRow(workload, mode, tenants, throughput, p50Ms, p99Ms);
  }

  /** This open-loop row as the model's check reads it, from a run of {@code seconds}. */
  public OpenLoopRow toOpenLoopRow(double seconds) {
    return new OpenLoopRow(workload, mode, tenants, ratePerSecond, throughput, p50Ms, p99Ms,
        java.util.OptionalDouble.of(requests / seconds));
  }
}
