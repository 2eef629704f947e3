package io.gpufleet.engine.advise;

import io.gpufleet.model.cloud.Money;
import io.gpufleet.model.deviceplugin.SharingMode.Family;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** How the advice writes numbers in sentences: fixed formats, Locale.ROOT, so output is stable. */
public final class Say {
  private Say() {}

  /** {@code 12.3 ms}; {@code unbounded} when infinite; {@code n/a} when unknown. */
  public static String ms(double v) {
    if (Double.isNaN(v)) {
      return "n/a";
    }
    if (Double.isInfinite(v)) {
      return "unbounded";
    }
    return String.format(Locale.ROOT, v < 100 ? "%.1f ms" : "%.0f ms", v);
  }

  /** {@code $2,937}. */
  public static String money(double v) {
    return Double.isInfinite(v) ? "n/a" : Money.wholeDollars(v);
  }

  /** {@code 37%}. */
  public static String percent(double share) {
    return String.format(Locale.ROOT, "%.0f%%", 100 * share);
  }

  /** {@code 1.8x}; {@code >=100x} at the headroom search's ceiling. */
  public static String times(double v) {
    if (v >= AdvicePolicy.DEFAULT.headroomCap()) {
      return String.format(Locale.ROOT, ">=%.0fx", AdvicePolicy.DEFAULT.headroomCap());
    }
    return String.format(Locale.ROOT, v < 10 ? "%.2fx" : "%.0fx", v);
  }

  static String families(Set<Family> f) {
    return f.stream().map(Family::label).collect(Collectors.joining(" or "));
  }

  static String gpus(int n, String gpu) {
    return n + " " + gpu + (n == 1 ? " GPU" : " GPUs");
  }
}
