package io.gpufleet.sim.metrics;

import io.gpufleet.model.workload.Workload;
import java.time.Duration;
import java.util.Optional;

/**
 * A workload's traffic, from gpufleet's annotations on it: {@code gpufleet.io/requests-per-second}
 * spread over its Ready pods, each request taking {@code gpufleet.io/request-duration} (Go duration
 * syntax). A pod asked to stop finishes its in-flight requests, so it exits after one request
 * duration (or its grace period, if shorter); one killed sooner loses them.
 */
public record Traffic(double requestsPerSecond, Duration requestDuration) {

  public static final String RATE_ANNOTATION = "gpufleet.io/requests-per-second";
  public static final String DURATION_ANNOTATION = "gpufleet.io/request-duration";
  public static final Traffic NONE = new Traffic(0, Duration.ZERO);

  public static Traffic of(Workload w) {
    var a = w.meta().annotations();
    Optional<String> rate = a.get(RATE_ANNOTATION);
    Optional<String> dur = a.get(DURATION_ANNOTATION);
    if (rate.isEmpty() && dur.isEmpty()) {
      return NONE;
    }
    double rps = rate.map(Traffic::number).orElse(0.0);
    return new Traffic(rps, dur.map(Traffic::duration).orElse(Duration.ZERO));
  }

  /** In-flight requests on one of {@code ready} pods (Little's law). */
  public double inFlightPerPod(int ready) {
    return ready <= 0 ? 0 : requestsPerSecond * requestDuration.toMillis() / 1000.0 / ready;
  }

  private static double number(String s) {
    try {
      return Double.parseDouble(s.strip());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** {@code 250ms}, {@code 2s}, {@code 1m30s}, {@code 1h}; anything else is zero. */
  static Duration duration(String s) {
    long millis = 0;
    int i = 0;
    String t = s.strip();
    while (i < t.length()) {
      int j = i;
      while (j < t.length() && (Character.isDigit(t.charAt(j)) || t.charAt(j) == '.')) {
        j++;
      }
      if (j == i) {
        return Duration.ZERO;
      }
      double v = Double.parseDouble(t.substring(i, j));
      int k = j;
      while (k < t.length() && Character.isLetter(t.charAt(k))) {
        k++;
      }
      long unit = switch (t.substring(j, k)) {
        case "ms" -> 1;
        case "s" -> 1000;
        case "m" -> 60_000;
        case "h" -> 3_600_000;
        default -> -1;
      };
      if (unit < 0) {
        return Duration.ZERO;
      }
      millis += Math.round(v * unit);
      i = k;
    }
    return Duration.ofMillis(millis);
  }
}
