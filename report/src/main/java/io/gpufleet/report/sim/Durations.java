package io.gpufleet.report.sim;

import java.time.Duration;
import java.time.Instant;

/** Clock offsets from the start of a run ({@code +04:25}); durations themselves read as KubeDuration writes them. */
final class Durations {
  private Durations() {}

  /** {@code +04:25} minutes and seconds since the start; hours when the run is long. */
  static String offset(Instant start, Instant t) {
    long s = Math.max(0, Duration.between(start, t).getSeconds());
    // Written by hand, not String.format: events.jsonl takes one per record, and a record count
    // that grows with the fleet made the format parser a visible share of writing it.
    StringBuilder b = new StringBuilder(9).append('+');
    if (s >= 3600) {
      b.append(s / 3600).append(':');
      twoDigits(b, (s % 3600) / 60);
    } else {
      twoDigits(b, s / 60);
    }
    return twoDigits(b.append(':'), s % 60).toString();
  }

  private static StringBuilder twoDigits(StringBuilder b, long v) {
    return (v < 10 ? b.append('0') : b).append(v);
  }
}
