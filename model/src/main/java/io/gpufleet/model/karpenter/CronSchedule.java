package io.gpufleet.model.karpenter;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.BitSet;
import java.util.Optional;

/**
 * A budget's {@code schedule}: standard five-field cron ({@code minute hour day-of-month month
 * day-of-week}) or a macro ({@code @yearly}, {@code @monthly}, {@code @weekly}, {@code @daily},
 * {@code @hourly}), always in UTC (reference §1.6). As in common cron, when both day fields are
 * restricted a day matches if either does.
 */
public final class CronSchedule {

  private final String text;
  private final BitSet minutes;
  private final BitSet hours;
  private final BitSet daysOfMonth;
  private final BitSet months;
  private final BitSet daysOfWeek;
  private final boolean domStar;
  private final boolean dowStar;

  private CronSchedule(String text, BitSet minutes, BitSet hours, BitSet daysOfMonth, BitSet months,
      BitSet daysOfWeek, boolean domStar, boolean dowStar) {
    this.text = text;
    this.minutes = minutes;
    this.hours = hours;
    this.daysOfMonth = daysOfMonth;
    this.months = months;
    this.daysOfWeek = daysOfWeek;
    this.domStar = domStar;
    this.dowStar = dowStar;
  }

  /** Parses a schedule; the exception's message says which field is wrong. */
  public static CronSchedule parse(String text) {
    String spec = switch (text.strip()) {
      case "@yearly", "@annually" -> "0 0 1 1 *";
      case "@monthly" -> "0 0 1 * *";
      case "@weekly" -> "0 0 * * 0";
      case "@daily", "@midnight" -> "0 0 * * *";
      case "@hourly" -> "0 * * * *";
      default -> text.strip();
    };
    String[] f = spec.split("\\s+");
    if (f.length != 5) {
      throw new IllegalArgumentException("expected 5 fields (minute hour day-of-month month day-of-week) or a macro "
          + "such as @daily, found " + f.length + " in \"" + text + "\"");
    }
    BitSet dow = field(f[4], 0, 7, "day-of-week", DAY_NAMES);
    if (dow.get(7)) {
      dow.set(0); // 7 is Sunday too
      dow.clear(7);
    }
    return new CronSchedule(text, field(f[0], 0, 59, "minute", null), field(f[1], 0, 23, "hour", null),
        field(f[2], 1, 31, "day-of-month", null), field(f[3], 1, 12, "month", MONTH_NAMES), dow,
        isStar(f[2]), isStar(f[4]));
  }

  private static final String[] DAY_NAMES = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};
  private static final String[] MONTH_NAMES =
      {"", "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};

  private static boolean isStar(String f) {
    return f.equals("*") || f.equals("?");
  }

  private static BitSet field(String text, int min, int max, String name, String[] names) {
    BitSet bits = new BitSet(max + 1);
    for (String part : text.split(",")) {
      int step = 1;
      String range = part;
      int slash = part.indexOf('/');
      if (slash >= 0) {
        step = number(part.substring(slash + 1), name, null);
        range = part.substring(0, slash);
        if (step < 1) {
          throw new IllegalArgumentException(name + ": step must be positive in \"" + part + "\"");
        }
      }
      int lo;
      int hi;
      if (isStar(range)) {
        lo = min;
        hi = max;
      } else if (range.contains("-")) {
        String[] ends = range.split("-", 2);
        lo = number(ends[0], name, names);
        hi = number(ends[1], name, names);
      } else {
        lo = number(range, name, names);
        hi = slash >= 0 ? max : lo;
      }
      if (lo < min || hi > max || lo > hi) {
        throw new IllegalArgumentException(name + ": \"" + part + "\" is outside " + min + "-" + max);
      }
      for (int v = lo; v <= hi; v += step) {
        bits.set(v);
      }
    }
    return bits;
  }

  private static int number(String s, String name, String[] names) {
    if (names != null) {
      for (int i = 0; i < names.length; i++) {
        if (!names[i].isEmpty() && names[i].equalsIgnoreCase(s)) {
          return i;
        }
      }
    }
    try {
      return Integer.parseInt(s);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + ": expected a number, found \"" + s + "\"");
    }
  }

  public String text() {
    return text;
  }

  /** Whether the schedule fires at this minute (seconds ignored). */
  public boolean firesAt(LocalDateTime t) {
    return months.get(t.getMonthValue()) && dayMatches(t) && hours.get(t.getHour()) && minutes.get(t.getMinute());
  }

  private boolean dayMatches(LocalDateTime t) {
    boolean dom = daysOfMonth.get(t.getDayOfMonth());
    boolean dow = daysOfWeek.get(t.getDayOfWeek().getValue() % 7);
    return domStar || dowStar ? dom && dow : dom || dow;
  }

  /**
   * The latest firing at or before {@code now}, looking back no further than {@code horizon}.
   * Skips whole months, days and hours that cannot match, so a look-back of days stays cheap.
   */
  public Optional<Instant> lastFiringAtOrBefore(Instant now, Duration horizon) {
    LocalDateTime t = LocalDateTime.ofInstant(now, ZoneOffset.UTC).truncatedTo(ChronoUnit.MINUTES);
    LocalDateTime limit = LocalDateTime.ofInstant(now.minus(horizon), ZoneOffset.UTC);
    while (!t.isBefore(limit)) {
      if (!months.get(t.getMonthValue())) {
        t = t.withDayOfMonth(1).withHour(0).withMinute(0).minusMinutes(1);
      } else if (!dayMatches(t)) {
        t = t.withHour(0).withMinute(0).minusMinutes(1);
      } else if (!hours.get(t.getHour())) {
        t = t.withMinute(0).minusMinutes(1);
      } else if (!minutes.get(t.getMinute())) {
        t = t.minusMinutes(1);
      } else {
        return Optional.of(t.toInstant(ZoneOffset.UTC));
      }
    }
    return Optional.empty();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CronSchedule c && c.text.equals(text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  @Override
  public String toString() {
    return text;
  }
}
