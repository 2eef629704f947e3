package io.gpufleet.manifest.advise;

import io.gpufleet.manifest.yaml.GoDuration;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.QuantityFormatException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * The value syntaxes a workload profile uses, shared by the YAML reader and the command-line flags:
 * counts with a suffix ({@code 1.5B}), Go durations ({@code 50ms}), Kubernetes quantities
 * ({@code 4Gi}, {@code 500m}).
 */
public final class ProfileValues {
  private ProfileValues() {}

  /** {@code 1.5B}, {@code 350M}, {@code 70k}, {@code 7e9}, {@code 1500000000}; empty when not a positive count. */
  public static OptionalDouble count(String text) {
    String t = text.strip();
    if (t.isEmpty()) {
      return OptionalDouble.empty();
    }
    double scale = switch (Character.toUpperCase(t.charAt(t.length() - 1))) {
      case 'K' -> 1e3;
      case 'M' -> 1e6;
      case 'B', 'G' -> 1e9;
      case 'T' -> 1e12;
      default -> 1;
    };
    String digits = scale == 1 ? t : t.substring(0, t.length() - 1);
    try {
      double v = Double.parseDouble(digits) * scale;
      return v > 0 && Double.isFinite(v) ? OptionalDouble.of(v) : OptionalDouble.empty();
    } catch (NumberFormatException e) {
      return OptionalDouble.empty();
    }
  }

  /** A positive Go duration in milliseconds ({@code 50ms}, {@code 0.25s}, {@code 1m}). */
  public static OptionalDouble milliseconds(String text) {
    Duration d = GoDuration.parse(text.strip());
    if (d == null || d.isZero() || d.isNegative()) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(d.toNanos() / 1e6);
  }

  /** A memory quantity in MiB, rounded up ({@code 4Gi} → 4096, {@code 3500Mi}, {@code 4G}). */
  public static OptionalLong mebibytes(String text) {
    try {
      Quantity q = Quantity.parse(text.strip());
      if (q.signum() <= 0) {
        return OptionalLong.empty();
      }
      BigDecimal mib = q.amount().divide(BigDecimal.valueOf(1024L * 1024L), 0, RoundingMode.CEILING);
      return OptionalLong.of(mib.longValueExact());
    } catch (QuantityFormatException | ArithmeticException e) {
      return OptionalLong.empty();
    }
  }

  /** A CPU quantity in millicores ({@code 1}, {@code 500m}). */
  public static OptionalLong millicores(String text) {
    try {
      Quantity q = Quantity.parse(text.strip());
      return q.signum() < 0 ? OptionalLong.empty() : OptionalLong.of(q.milliValue());
    } catch (QuantityFormatException e) {
      return OptionalLong.empty();
    }
  }

  /** A positive decimal number. */
  public static OptionalDouble positive(String text) {
    try {
      double v = Double.parseDouble(text.strip().toLowerCase(Locale.ROOT));
      return v > 0 && Double.isFinite(v) ? OptionalDouble.of(v) : OptionalDouble.empty();
    } catch (NumberFormatException e) {
      return OptionalDouble.empty();
    }
  }
}
