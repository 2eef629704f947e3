package io.gpufleet.engine.advise;

import java.util.List;
import java.util.OptionalDouble;

/**
 * p99 of one workload's replicas as more of them share one GPU, per mode: what the advice's chart
 * draws. A point is NaN where the mode cannot hold that many (memory, MIG instances, MPS clients)
 * and infinite where the card cannot keep up.
 */
public record TenantSweep(String workload, OptionalDouble sloP99Ms, List<Series> series) {

  public TenantSweep {
    series = List.copyOf(series);
  }

  public record Series(String mode, List<Point> points) {
    public Series {
      points = List.copyOf(points);
    }
  }

  public record Point(int tenants, double p99Ms) {}
}
