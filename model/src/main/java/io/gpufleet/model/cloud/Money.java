package io.gpufleet.model.cloud;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * How every output writes money, whatever the default locale: prices per hour, sums spent, and
 * monthly estimates. One place, so that a computed price (a spot ratio times an on-demand price,
 * {@code 0.6843199999999999}) never reaches a person as the double it is.
 */
public final class Money {

  /**
   * The most decimals a price per hour keeps: the finest the built-in catalogue writes (p4d.24xlarge,
   * $21.957642/h, from Karpenter's generated AWS pricing table; see aws-instance-types.txt), so
   * every catalogue price prints exactly as published.
   */
  static final int PRICE_DECIMALS = 6;

  private Money() {}

  /**
   * A price per hour: {@code $0.8048/h}, {@code $6.88/h}, {@code $0.68432/h}: rounded half-up to
   * six decimals, trailing zeros dropped down to cents.
   */
  public static String perHour(double dollarsPerHour) {
    return amount(dollarsPerHour, PRICE_DECIMALS) + "/h";
  }

  /** A sum spent, to the cent: {@code $12.34}. */
  public static String dollars(double dollars) {
    return amount(dollars, 2);
  }

  /** A monthly estimate, to the dollar with thousands separators: {@code $2,937}. */
  public static String wholeDollars(double dollars) {
    requireFinite(dollars);
    return String.format(Locale.ROOT, "%s$%,d", dollars < 0 ? "-" : "",
        BigDecimal.valueOf(Math.abs(dollars)).setScale(0, RoundingMode.HALF_UP).longValueExact());
  }

  private static String amount(double dollars, int maxDecimals) {
    requireFinite(dollars);
    BigDecimal v = BigDecimal.valueOf(Math.abs(dollars)).setScale(maxDecimals, RoundingMode.HALF_UP)
        .stripTrailingZeros();
    if (v.scale() < 2) {
      v = v.setScale(2, RoundingMode.UNNECESSARY);
    }
    boolean negative = dollars < 0 && v.signum() != 0;
    return (negative ? "-$" : "$") + v.toPlainString();
  }

  private static void requireFinite(double v) {
    if (!Double.isFinite(v)) {
      throw new IllegalArgumentException("an amount of money must be finite, found " + v);
    }
  }
}
