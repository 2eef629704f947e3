package io.gpufleet.engine.perf;

import java.util.List;

/**
 * A request's service time as a finite mixture: {@code ms[k]} with probability {@code weight[k]}
 * (one atom per number of co-tenants it meets). Immutable.
 */
public record ServiceTimes(List<Double> ms, List<Double> weight) {

  public ServiceTimes {
    ms = List.copyOf(ms);
    weight = List.copyOf(weight);
    if (ms.isEmpty() || ms.size() != weight.size()) {
      throw new IllegalArgumentException("a service-time mixture needs as many weights as atoms");
    }
  }

  public static ServiceTimes fixed(double ms) {
    return new ServiceTimes(List.of(ms), List.of(1.0));
  }

  public double mean() {
    double m = 0;
    for (int i = 0; i < ms.size(); i++) {
      m += weight.get(i) * ms.get(i);
    }
    return m;
  }

  /** Squared coefficient of variation. */
  public double scv() {
    double m = mean();
    double v = 0;
    for (int i = 0; i < ms.size(); i++) {
      double d = ms.get(i) - m;
      v += weight.get(i) * d * d;
    }
    return v / (m * m);
  }

  public double min() {
    double lo = Double.POSITIVE_INFINITY;
    for (int i = 0; i < ms.size(); i++) {
      if (weight.get(i) > 0) {
        lo = Math.min(lo, ms.get(i));
      }
    }
    return lo;
  }

  public double max() {
    double hi = 0;
    for (int i = 0; i < ms.size(); i++) {
      if (weight.get(i) > 0) {
        hi = Math.max(hi, ms.get(i));
      }
    }
    return hi;
  }
}
