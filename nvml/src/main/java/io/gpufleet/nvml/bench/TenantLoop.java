package io.gpufleet.nvml.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One tenant's measurement loop, as {@code tenant.py} of the H200 measurement runs it: for
 * {@code durationNanos}, closed loop sends the next request when the last completes; open loop
 * schedules Poisson arrivals and sends each when it is due or, if the tenant is behind, at once, so a
 * request's latency includes its wait behind the tenant's earlier requests.
 */
public final class TenantLoop {
  private TenantLoop() {}

  public static TenantRun run(Workload workload, Arrivals arrivals, long durationNanos, Ticker ticker) {
    List<Long> latencies = new ArrayList<>();
    double gpuBefore = workload.gpuMillis();
    long start = ticker.nanos();
    long end = start + durationNanos;
    switch (arrivals) {
      case Arrivals.Closed c -> {
        while (true) {
          long arrival = ticker.nanos();
          if (arrival >= end) {
            break;
          }
          workload.request();
          latencies.add(ticker.nanos() - arrival);
        }
      }
      case Arrivals.Poisson p -> {
        SplittableRandom random = new SplittableRandom(p.seed());
        long next = start;
        while (true) {
          next += p.nextGap(random);
          if (next >= end) {
            break;
          }
          ticker.sleepUntil(next);
          workload.request();
          latencies.add(ticker.nanos() - next);
        }
      }
    }
    return new TenantRun(latencies, ticker.nanos() - start, workload.gpuMillis() - gpuBefore);
  }
}
