package io.gpufleet.model.advise;

import java.util.Locale;

/** How profile values print: counts with SI suffixes, numbers without trailing zeros. */
final class Units {
  private Units() {}

  /** {@code 1.5B}, {@code 350M}, {@code 7B}. */
  static String count(double v) {
    if (v >= 1e9) {
      return trim(v / 1e9) + "B";
    }
    if (v >= 1e6) {
      return trim(v / 1e6) + "M";
    }
    if (v >= 1e3) {
      return trim(v / 1e3) + "k";
    }
    return trim(v);
  }

  /** At most three decimals, trailing zeros dropped. */
  static String trim(double v) {
    String s = String.format(Locale.ROOT, "%.3f", v);
    s = s.replaceAll("0+$", "");
    return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
  }
}
