package io.gpufleet.report.sim;

import java.time.Duration;
import java.time.Instant;

/**
 * Points in run time, as every output writes them: {@code +HH:MM:SS} since the start of the run
 * ({@code +00:04:25}, {@code +01:00:00}, {@code +168:01:01}). Durations themselves read as
 * KubeDuration writes them ({@code 3m56s}), as kubectl does.
 */
public final class Durations {
  private Durations() {}

  /** {@code +HH:MM:SS} since {@code start}; whole seconds, never before the start. */
  public static String offset(Instant start, Instant t) {
    return offset(Duration.between(start, t));
  }

  /** {@code +HH:MM:SS} for {@code d} into the run; hours grow past two digits in runs over 99 hours. */
  public static String offset(Duration d) {
    long s = Math.max(0, d.getSeconds());
    // Written by hand, not String.format: events.jsonl takes one per record, and a record count
    // that grows with the fleet made the format parser a visible share of writing it.
    StringBuilder b = new StringBuilder(10).append('+');
    twoDigits(b, s / 3600).append(':');
    twoDigits(b, (s % 3600) / 60).append(':');
    return twoDigits(b, s % 60).toString();
  }

  private static StringBuilder twoDigits(StringBuilder b, long v) {
    return (v < 10 ? b.append('0') : b).append(v);
  }
}
