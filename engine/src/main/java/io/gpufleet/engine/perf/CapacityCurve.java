package io.gpufleet.engine.perf;

import io.gpufleet.model.advise.ClosedLoopRow;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What one card does for one workload under one mode with {@code n} busy tenants, read from its
 * closed-loop rows: the aggregate throughput {@code X(n)} of n tenants sending back to back is the
 * card's capacity with n busy, and {@code n / X(n)} the time one request takes while n are busy.
 * Between measured tenant counts the throughput is interpolated linearly; past the largest it is
 * taken as flat (the card saturated), which the coverage report says.
 *
 * @param workload   the bench workload ({@code big} or {@code small})
 * @param mode       {@code time-slicing}, {@code mps} or {@code mps-capped}
 * @param throughput aggregate requests per second by number of busy tenants (N=1 required)
 */
public record CapacityCurve(String workload, String mode, Map<Integer, Double> throughput) {

  public CapacityCurve {
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(mode, "mode");
    throughput = Map.copyOf(throughput);
    if (!throughput.containsKey(1)) {
      throw new IllegalArgumentException(workload + " " + mode + ": a capacity curve needs the N=1 row");
    }
  }

  /** The curve of the rows of one workload and mode (several rows of one N are averaged). */
  public static CapacityCurve of(List<ClosedLoopRow> rows, String workload, String mode) {
    Map<Integer, double[]> sums = new TreeMap<>();
    for (ClosedLoopRow r : rows) {
      if (r.workload().equals(workload) && r.mode().equals(mode)) {
        double[] s = sums.computeIfAbsent(r.tenants(), k -> new double[2]);
        s[0] += r.throughput();
        s[1]++;
      }
    }
    Map<Integer, Double> x = new TreeMap<>();
    sums.forEach((n, s) -> x.put(n, s[0] / s[1]));
    return new CapacityCurve(workload, mode, x);
  }

  /** The same card's curve for a request {@code factor} times as long alone. */
  public CapacityCurve scaled(double factor) {
    if (!(factor > 0)) {
      throw new IllegalArgumentException("a scale must be positive, found " + factor);
    }
    Map<Integer, Double> x = new TreeMap<>();
    throughput.forEach((n, v) -> x.put(n, v / factor));
    return new CapacityCurve(workload, mode, x);
  }

  /** The largest tenant count measured. */
  public int measuredUpTo() {
    return new TreeMap<>(throughput).lastKey();
  }

  /** Aggregate requests per second with {@code n} tenants busy. */
  public double capacity(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("at least one busy tenant, found " + n);
    }
    TreeMap<Integer, Double> x = new TreeMap<>(throughput);
    Map.Entry<Integer, Double> lo = x.floorEntry(n);
    Map.Entry<Integer, Double> hi = x.ceilingEntry(n);
    if (hi == null) {
      return lo.getValue();
    }
    if (lo.getKey().equals(hi.getKey())) {
      return lo.getValue();
    }
    double t = (double) (n - lo.getKey()) / (hi.getKey() - lo.getKey());
    return lo.getValue() + t * (hi.getValue() - lo.getValue());
  }

  /** How long one request takes, ms, while {@code busy} tenants (itself included) have one in service. */
  public double serviceMs(int busy) {
    return busy * 1000.0 / capacity(busy);
  }
}
