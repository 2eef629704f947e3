package io.gpufleet.sim.metrics;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** A step function over virtual time: each sample holds until the next. */
public record TimeSeries(String name, List<Sample> samples) {

  public record Sample(Instant time, double value) {}

  public TimeSeries {
    samples = List.copyOf(samples);
  }

  /** The value in force at {@code t} (0 before the first sample). */
  public double at(Instant t) {
    double v = 0;
    for (Sample s : samples) {
      if (s.time().isAfter(t)) {
        break;
      }
      v = s.value();
    }
    return v;
  }

  public double max() {
    return samples.stream().mapToDouble(Sample::value).max().orElse(0);
  }

  public double min() {
    return samples.stream().mapToDouble(Sample::value).min().orElse(0);
  }

  /** The least value in force anywhere in {@code [from, to]}. */
  public double minBetween(Instant from, Instant to) {
    double min = at(from);
    for (Sample s : samples) {
      if (s.time().isAfter(from) && !s.time().isAfter(to)) {
        min = Math.min(min, s.value());
      }
    }
    return min;
  }

  /** The area under the step function from {@code from} to {@code to}, in value × hours. */
  public double hoursIntegral(Instant from, Instant to) {
    double area = 0;
    for (int i = 0; i < samples.size(); i++) {
      Instant a = samples.get(i).time().isBefore(from) ? from : samples.get(i).time();
      Instant b = i + 1 < samples.size() ? samples.get(i + 1).time() : to;
      if (b.isAfter(to)) {
        b = to;
      }
      if (b.isAfter(a)) {
        area += samples.get(i).value() * Duration.between(a, b).toMillis() / 3_600_000.0;
      }
    }
    return area;
  }
}
