package io.gpufleet.report.chart;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An axis: its label, its range and its ticks. A tick step of 0 picks a "nice" step (1, 2 or 5
 * times a power of ten) that gives about six ticks. {@code decimals} is how tick labels are printed.
 */
public record Axis(String label, double min, double max, double tickStep, int decimals) {

  public Axis {
    Objects.requireNonNull(label, "label");
    if (!Double.isFinite(min) || !Double.isFinite(max) || max <= min) {
      throw new IllegalArgumentException("axis " + label + " needs min < max, got " + min + ".." + max);
    }
    if (tickStep < 0 || !Double.isFinite(tickStep)) {
      throw new IllegalArgumentException("axis " + label + " tick step must be >= 0, got " + tickStep);
    }
    if (decimals < 0 || decimals > 6) {
      throw new IllegalArgumentException("axis " + label + " decimals must be 0..6, got " + decimals);
    }
  }

  /** An axis with automatic ticks. */
  public static Axis of(String label, double min, double max) {
    return new Axis(label, min, max, 0, 0);
  }

  public Axis withTicks(double step, int tickDecimals) {
    return new Axis(label, min, max, step, tickDecimals);
  }

  /** The step between ticks, chosen if not given. */
  public double step() {
    if (tickStep > 0) {
      return tickStep;
    }
    double raw = (max - min) / 6;
    double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    double norm = raw / magnitude;
    double nice = norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10;
    return nice * magnitude;
  }

  /** Tick values from the first multiple of the step at or above min, up to max. */
  public List<Double> ticks() {
    double step = step();
    List<Double> ticks = new ArrayList<>();
    long first = (long) Math.ceil(min / step - 1e-9);
    for (long k = first; k * step <= max + step * 1e-9; k++) {
      ticks.add(k * step);
      if (ticks.size() > 200) {
        throw new IllegalArgumentException("axis " + label + " would have more than 200 ticks");
      }
    }
    return ticks;
  }
}
