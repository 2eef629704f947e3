package io.gpufleet.model.time;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads Go's duration syntax as Kubernetes and Karpenter write it: {@code 1h30m}, {@code 720h},
 * {@code 0s}, {@code 1.5h}. Writing one back is KubeDuration's job.
 */
public final class GoDuration {
  private GoDuration() {}

  private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");

  /** The longest duration Go has: int64 nanoseconds, about 2562047h47m. */
  private static final double MAX_NANOS = Long.MAX_VALUE;

  /** The duration, or null when the text is not one, or more than Go's int64 nanoseconds hold (Go's "invalid duration"). */
  public static Duration parse(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    if (text.equals("0")) {
      return Duration.ZERO;
    }
    Matcher m = PART.matcher(text);
    int pos = 0;
    long nanos = 0;
    while (pos < text.length()) {
      if (!m.find(pos) || m.start() != pos) {
        return null;
      }
      double v = Double.parseDouble(m.group(1));
      long unit = switch (m.group(2)) {
        case "ns" -> 1L;
        case "us", "µs" -> 1_000L;
        case "ms" -> 1_000_000L;
        case "s" -> 1_000_000_000L;
        case "m" -> 60_000_000_000L;
        default -> 3_600_000_000_000L;
      };
      double part = v * unit;
      if (nanos + part >= MAX_NANOS) {
        return null; // time.ParseDuration: overflow is an invalid duration, never a capped one
      }
      nanos += Math.round(part);
      pos = m.end();
    }
    return Duration.ofNanos(nanos);
  }
}
