package io.gpufleet.model.resource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * A Kubernetes resource quantity, parsed and printed as the API server does.
 *
 * <p>The value is exact to the nano (finer digits round up, away from zero, as the API server
 * does). The suffix family of the input is kept, so {@code 1.5Gi} prints back as {@code 1536Mi},
 * {@code 1.5} as {@code 1500m} and {@code 1e3} as {@code 1e3}.
 */
public record Quantity(BigDecimal amount, Format format) implements Comparable<Quantity> {

  /** How a quantity prints: the family of its suffix. */
  public enum Format { DECIMAL_SI, BINARY_SI, DECIMAL_EXPONENT }

  /** The API server's message for text that is not a quantity at all. */
  public static final String FORMAT_MESSAGE =
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

  private static final int NANO_SCALE = 9;
  private static final BigInteger THOUSAND = BigInteger.valueOf(1000);
  private static final BigInteger KI = BigInteger.valueOf(1024);
  private static final BigDecimal MAX = new BigDecimal(Long.MAX_VALUE);

  public static final Quantity ZERO = new Quantity(BigDecimal.ZERO, Format.DECIMAL_SI);

  public Quantity {
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(format, "format");
    amount = amount.setScale(NANO_SCALE, RoundingMode.UP).stripTrailingZeros();
    if (amount.signum() == 0) {
      amount = BigDecimal.ZERO;
    }
  }

  public static Quantity of(long units) {
    return new Quantity(BigDecimal.valueOf(units), Format.DECIMAL_SI);
  }

  public static Quantity ofMillis(long millis) {
    return new Quantity(BigDecimal.valueOf(millis, 3), Format.DECIMAL_SI);
  }

  public static Quantity ofBytes(long bytes) {
    return new Quantity(BigDecimal.valueOf(bytes), Format.BINARY_SI);
  }

  public static Quantity ofMebibytes(long mib) {
    return ofBytes(mib << 20);
  }

  /**
   * Parses a quantity the way {@code resource.ParseQuantity} does.
   *
   * @throws QuantityFormatException with the API server's message when the text is malformed
   */
  public static Quantity parse(String text) {
    if (text == null || text.isEmpty()) {
      throw new QuantityFormatException(text, "quantities must be non-empty");
    }
    String s = text.strip();
    if (!s.equals(text)) {
      throw new QuantityFormatException(text, FORMAT_MESSAGE);
    }
    int i = 0;
    boolean negative = false;
    if (s.charAt(0) == '+' || s.charAt(0) == '-') {
      negative = s.charAt(0) == '-';
      i++;
    }
    int numberStart = i;
    int dots = 0;
    int digits = 0;
    // ASCII digits only, as resource.ParseQuantity reads them: Character.isDigit would take '١' (Arabic-Indic one).
    while (i < s.length() && (isAsciiDigit(s.charAt(i)) || s.charAt(i) == '.')) {
      if (s.charAt(i) == '.') {
        dots++;
      } else {
        digits++;
      }
      i++;
    }
    if (digits == 0 || dots > 1) {
      throw new QuantityFormatException(text, FORMAT_MESSAGE);
    }
    BigDecimal number = new BigDecimal(s.substring(numberStart, i));
    String suffix = s.substring(i);
    BigDecimal value;
    Format format;
    switch (suffix) {
      case "" -> { value = number; format = Format.DECIMAL_SI; }
      case "n" -> { value = number.movePointLeft(9); format = Format.DECIMAL_SI; }
      case "u" -> { value = number.movePointLeft(6); format = Format.DECIMAL_SI; }
      case "m" -> { value = number.movePointLeft(3); format = Format.DECIMAL_SI; }
      case "k" -> { value = number.movePointRight(3); format = Format.DECIMAL_SI; }
      case "M" -> { value = number.movePointRight(6); format = Format.DECIMAL_SI; }
      case "G" -> { value = number.movePointRight(9); format = Format.DECIMAL_SI; }
      case "T" -> { value = number.movePointRight(12); format = Format.DECIMAL_SI; }
      case "P" -> { value = number.movePointRight(15); format = Format.DECIMAL_SI; }
      case "E" -> { value = number.movePointRight(18); format = Format.DECIMAL_SI; }
      case "Ki" -> { value = number.multiply(new BigDecimal(KI.pow(1))); format = Format.BINARY_SI; }
      case "Mi" -> { value = number.multiply(new BigDecimal(KI.pow(2))); format = Format.BINARY_SI; }
      case "Gi" -> { value = number.multiply(new BigDecimal(KI.pow(3))); format = Format.BINARY_SI; }
      case "Ti" -> { value = number.multiply(new BigDecimal(KI.pow(4))); format = Format.BINARY_SI; }
      case "Pi" -> { value = number.multiply(new BigDecimal(KI.pow(5))); format = Format.BINARY_SI; }
      case "Ei" -> { value = number.multiply(new BigDecimal(KI.pow(6))); format = Format.BINARY_SI; }
      default -> {
        if ((suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E') && suffix.length() > 1) {
          String exponent = suffix.substring(1);
          if (!exponent.matches("[+-]?[0-9]{1,9}")) {
            throw new QuantityFormatException(text, "unable to parse quantity's suffix");
          }
          int e = Integer.parseInt(exponent);
          if (Math.abs(e) > 1000) {
            throw new QuantityFormatException(text, "unable to parse quantity's suffix");
          }
          value = number.movePointRight(e);
          format = Format.DECIMAL_EXPONENT;
        } else if (suffix.matches("[eEinumkKMGTP]*[-+]?[0-9]*")) {
          throw new QuantityFormatException(text, "unable to parse quantity's suffix");
        } else {
          throw new QuantityFormatException(text, FORMAT_MESSAGE);
        }
      }
    }
    if (format == Format.BINARY_SI && value.compareTo(MAX) > 0) {
      value = MAX; // resource.ParseQuantity caps a binary quantity (only) at 2^63-1 rather than reject it
    }
    // A binary quantity below one cannot print in binary without rounding: it becomes decimal.
    if (format == Format.BINARY_SI && value.compareTo(BigDecimal.ONE) < 0 && value.signum() > 0) {
      format = Format.DECIMAL_SI;
    }
    return new Quantity(negative ? value.negate() : value, format);
  }

  private static boolean isAsciiDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** True when the text parses as a quantity. */
  public static boolean isValid(String text) {
    try {
      parse(text);
      return true;
    } catch (QuantityFormatException e) {
      return false;
    }
  }

  /** The amount rounded up to a whole unit, as {@code Quantity.Value()} does. */
  public long value() {
    return saturated(amount.setScale(0, RoundingMode.CEILING));
  }

  /** The amount in thousandths, rounded up, as {@code Quantity.MilliValue()} does. */
  public long milliValue() {
    return saturated(amount.movePointRight(3).setScale(0, RoundingMode.CEILING));
  }

  private static long saturated(BigDecimal whole) {
    if (whole.compareTo(MAX) > 0) {
      return Long.MAX_VALUE;
    }
    if (whole.compareTo(MAX.negate()) < 0) {
      return -Long.MAX_VALUE;
    }
    return whole.longValueExact();
  }

    public boolean isZero() {
    return amount.signum() == 0;
  }

  public boolean isInteger() {
    return amount.stripTrailingZeros().scale() <= 0;
  }

  public int signum() {
    return amount.signum();
  }

  public Quantity plus(Quantity other) {
    return new Quantity(amount.add(other.amount), format);
  }

  public Quantity minus(Quantity other) {
    return new Quantity(amount.subtract(other.amount), format);
  }

  public Quantity times(long factor) {
    return new Quantity(amount.multiply(BigDecimal.valueOf(factor)), format);
  }

  @Override
  public int compareTo(Quantity other) {
    return amount.compareTo(other.amount);
  }

  /** Equality is by amount, as {@code Quantity.Equal}: {@code 1Gi} equals {@code 1073741824}. */
  @Override
  public boolean equals(Object o) {
    return o instanceof Quantity q && amount.compareTo(q.amount) == 0;
  }

  @Override
  public int hashCode() {
    return amount.hashCode();
  }

  /** The canonical form the API server writes back. */
  @Override
  public String toString() {
    if (amount.signum() == 0) {
      return "0";
    }
    Format f = format;
    if (f == Format.BINARY_SI) {
      boolean small = amount.abs().compareTo(BigDecimal.valueOf(1024)) < 0;
      boolean whole = amount.stripTrailingZeros().scale() <= 0;
      if (small || !whole) {
        f = Format.DECIMAL_SI;
      }
    }
    return f == Format.BINARY_SI ? binary() : decimal(f);
  }

  private String binary() {
    BigInteger n = amount.toBigIntegerExact();
    String sign = n.signum() < 0 ? "-" : "";
    n = n.abs();
    int power = 0;
    while (power < 6 && n.mod(KI).signum() == 0) {
      n = n.divide(KI);
      power++;
    }
    String[] suffixes = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    return sign + n + suffixes[power];
  }

  private String decimal(Format f) {
    // mantissa * 10^exponent with the exponent a multiple of three and the mantissa whole.
    BigDecimal abs = amount.abs();
    int exponent = -NANO_SCALE;
    BigInteger mantissa = abs.movePointRight(NANO_SCALE).toBigIntegerExact();
    while (mantissa.mod(THOUSAND).signum() == 0 && mantissa.signum() != 0) {
      mantissa = mantissa.divide(THOUSAND);
      exponent += 3;
    }
    String suffix;
    if (f == Format.DECIMAL_EXPONENT) {
      suffix = exponent == 0 ? "" : "e" + exponent;
    } else {
      suffix = switch (exponent) {
        case -9 -> "n";
        case -6 -> "u";
        case -3 -> "m";
        case 0 -> "";
        case 3 -> "k";
        case 6 -> "M";
        case 9 -> "G";
        case 12 -> "T";
        case 15 -> "P";
        case 18 -> "E";
        default -> "e" + exponent;
      };
    }
    return (amount.signum() < 0 ? "-" : "") + mantissa + suffix;
  }
}
