package io.gpufleet.report.sim;

import java.time.Duration;
import java.time.Instant;

/** Clock offsets from the start of a run ({@code +04:25}); durations themselves read as KubeDuration writes them. */
final class Durations {
  private Durations() {}

  /** {@code +04:25} minutes and seconds since the start; hours when the run is long. */
  static String offset(Instant start, Instant t) {
    long s = Math.max(0, Duration.between(start, t).getSeconds());
    if (s >= 3600) {
      return String.format(java.util.Locale.ROOT, "+%d:%02d:%02d", s / 3600, (s % 3600) / 60, s % 60);
    }
    return String.format(java.util.Locale.ROOT, "+%02d:%02d", s / 60, s % 60);
  }
}
