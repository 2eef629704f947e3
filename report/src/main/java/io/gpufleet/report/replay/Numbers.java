package io.gpufleet.report.replay;

import java.util.Locale;

/** Fixed-precision, locale-independent number text for reports, so that output is byte-stable. */
final class Numbers {

  private Numbers() {}

  static String fixed(double v, int decimals) {
    if (Double.isNaN(v)) {
      return "";
    }
    String s = String.format(Locale.ROOT, "%." + decimals + "f", v);
    return s.startsWith("-") && s.matches("-0\\.?0*") ? s.substring(1) : s;
  }

  static String pct(double v) {
    return fixed(v, 2);
  }
}
