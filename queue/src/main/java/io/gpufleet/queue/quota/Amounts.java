package io.gpufleet.queue.quota;

import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceName;

/**
 * Kueue's {@code resources.Amount} on a {@code long}: millicores for cpu, whole units otherwise,
 * with {@link #UNLIMITED} as a saturating top ({@code pkg/resources/amount.go}).
 */
public final class Amounts {

  /** {@code resources.Unlimited}: MaxInt64. */
  public static final long UNLIMITED = Long.MAX_VALUE;

  private Amounts() {}

  /** {@code AmountFromQuantity}: cpu in millis, others in units; at or past the int64 range, unlimited. */
  public static long of(ResourceName name, Quantity q) {
    if (name.equals(ResourceName.CPU)) {
      return q.amount().compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE / 1000)) >= 0 ? UNLIMITED : q.milliValue();
    }
    return q.amount().compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) >= 0 ? UNLIMITED : q.value();
  }

  /** {@code resources.ResourceValue}: a request's int64 value (cpu in millis). */
  public static long requestValue(ResourceName name, Quantity q) {
    return name.equals(ResourceName.CPU) ? q.milliValue() : q.value();
  }

  public static long add(long a, long b) {
    if (a == UNLIMITED || b == UNLIMITED) {
      return UNLIMITED;
    }
    long r = a + b;
    if (((a ^ r) & (b ^ r)) < 0) {
      return a < 0 ? Long.MIN_VALUE : UNLIMITED;
    }
    return r;
  }

  public static long sub(long a, long b) {
    if (a == UNLIMITED && b == UNLIMITED) {
      return 0;
    }
    if (a == UNLIMITED) {
      return UNLIMITED;
    }
    if (b == UNLIMITED) {
      return Long.MIN_VALUE;
    }
    long r = a - b;
    if (((a ^ b) & (a ^ r)) < 0) {
      return a < 0 ? Long.MIN_VALUE : UNLIMITED;
    }
    return r;
  }

  /**
   * A value as Kueue's {@code ResourceFormatter} prints it: cpu as a milli quantity, memory,
   * ephemeral-storage and hugepages as a binary quantity, the rest as a decimal one.
   */
  public static String format(ResourceName name, long value) {
    return value == UNLIMITED ? "Unlimited" : formatRequest(name, value);
  }

  /** A request's int64 as {@code ResourceQuantityString} prints it: no "Unlimited", MaxInt64 printed as a number. */
  public static String formatRequest(ResourceName name, long value) {
    if (name.equals(ResourceName.CPU)) {
      return Quantity.ofMillis(value).toString();
    }
    String n = name.toString();
    if (n.equals("memory") || n.equals("ephemeral-storage") || n.startsWith("hugepages-")) {
      return Quantity.ofBytes(value).toString();
    }
    return Quantity.of(value).toString();
  }
}
