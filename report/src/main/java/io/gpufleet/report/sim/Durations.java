package io.gpufleet.report.sim;

import java.time.Duration;
import java.time.Instant;

/** Durations as kubectl prints ages ({@code 45s}, {@code 4m12s}, {@code 3h5m}, {@code 2d4h}) and clock offsets. */
final class Durations {
  private Durations() {}

  static String age(Duration d) {
    long s = Math.max(0, d.getSeconds());
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return (s / 60) + "m" + (s % 60 == 0 ? "" : (s % 60) + "s");
    }
    if (s < 86_400) {
      return (s / 3600) + "h" + ((s % 3600) / 60 == 0 ? "" : ((s % 3600) / 60) + "m");
    }
    return (s / 86_400) + "d" + ((s % 86_400) / 3600 == 0 ? "" : ((s % 86_400) / 3600) + "h");
  }

  static String age(Instant from, Instant to) {
    return age(Duration.between(from, to));
  }

  /** {@code +04:25} minutes and seconds since the start; hours when the run is long. */
  static String offset(Instant start, Instant t) {
    long s = Math.max(0, Duration.between(start, t).getSeconds());
    if (s >= 3600) {
      return String.format(java.util.Locale.ROOT, "+%d:%02d:%02d", s / 3600, (s % 3600) / 60, s % 60);
    }
    return String.format(java.util.Locale.ROOT, "+%02d:%02d", s / 60, s % 60);
  }
}
