package io.gpufleet.model.time;

import java.time.Duration;

/**
 * The one way gpufleet writes a duration for people: never Java's {@code PT2M}.
 *
 * <p>{@link #format} is exact, in Go's duration syntax as Kubernetes and Karpenter manifests write
 * it ({@code 45s}, {@code 2m}, {@code 1h30m}, {@code 720h}, {@code 250ms}): Go's
 * {@code time.Duration.String()} with its trailing zero units left out ({@code 2m0s} reads
 * {@code 2m}), so every value parses back with {@code time.ParseDuration}. {@link #age} rounds as
 * kubectl's AGE column does.
 */
public final class KubeDuration {
  private KubeDuration() {}

  /** {@code 0s}, {@code 250ms}, {@code 45s}, {@code 2m}, {@code 4m12s}, {@code 1h30m}, {@code 1h0m5s}, {@code 720h}. */
  public static String format(Duration d) {
    if (d.isNegative()) {
      return "-" + format(d.negated());
    }
    if (d.isZero()) {
      return "0s";
    }
    long seconds = d.getSeconds();
    int nanos = d.getNano();
    if (seconds == 0) {
      // Below a second Go picks the largest unit under the value: ms, µs or ns.
      if (nanos >= 1_000_000) {
        return fraction(nanos, 1_000_000) + "ms";
      }
      if (nanos >= 1_000) {
        return fraction(nanos, 1_000) + "µs";
      }
      return nanos + "ns";
    }
    long h = seconds / 3600;
    long m = (seconds % 3600) / 60;
    long s = seconds % 60;
    StringBuilder b = new StringBuilder();
    if (h > 0) {
      b.append(h).append('h');
    }
    boolean secondsPart = s > 0 || nanos > 0;
    if (m > 0 || (h > 0 && secondsPart)) {
      b.append(m).append('m');
    }
    if (secondsPart) {
      b.append(fraction(s * 1_000_000_000L + nanos, 1_000_000_000L)).append('s');
    }
    return b.toString();
  }

  /** {@code value / unit} in decimal, without trailing zeros: 1500/1000 is {@code 1.5}. */
  private static String fraction(long value, long unit) {
    long whole = value / unit;
    long rest = value % unit;
    if (rest == 0) {
      return Long.toString(whole);
    }
    StringBuilder digits = new StringBuilder(Long.toString(rest + unit).substring(1));
    while (digits.charAt(digits.length() - 1) == '0') {
      digits.setLength(digits.length() - 1);
    }
    return whole + "." + digits;
  }

  /**
   * An age as kubectl prints it, two or three significant figures: {@code 45s}, {@code 119s},
   * {@code 4m12s}, {@code 95m}, {@code 3h5m}, {@code 20h}, {@code 2d4h}, {@code 30d}, {@code 2y30d}.
   * A port of {@code HumanDuration} in k8s.io/apimachinery/pkg/util/duration/duration.go, which
   * kubectl's printers use for AGE; the sub-second deviation branch ({@code <invalid>}) has no
   * counterpart in virtual time, where a negative age is zero.
   */
  public static String age(Duration d) {
    long seconds = Math.max(0, d.getSeconds());
    if (seconds < 60 * 2) {
      return seconds + "s";
    }
    long minutes = seconds / 60;
    if (minutes < 10) {
      long s = seconds % 60;
      return s == 0 ? minutes + "m" : minutes + "m" + s + "s";
    }
    if (minutes < 60 * 3) {
      return minutes + "m";
    }
    long hours = seconds / 3600;
    if (hours < 8) {
      long m = minutes % 60;
      return m == 0 ? hours + "h" : hours + "h" + m + "m";
    }
    if (hours < 48) {
      return hours + "h";
    }
    if (hours < 24 * 8) {
      long h = hours % 24;
      return h == 0 ? (hours / 24) + "d" : (hours / 24) + "d" + h + "h";
    }
    if (hours < 24 * 365 * 2) {
      return (hours / 24) + "d";
    }
    if (hours < 24 * 365 * 8) {
      long dy = (hours / 24) % 365;
      return dy == 0 ? (hours / 24 / 365) + "y" : (hours / 24 / 365) + "y" + dy + "d";
    }
    return (hours / 24 / 365) + "y";
  }
}
