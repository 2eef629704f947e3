package io.gpufleet.report.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class DurationsTest {

  private static final Instant START = Instant.parse("2026-01-05T00:00:00Z");

  @Test
  void alwaysHoursMinutesAndSeconds() {
    assertThat(Durations.offset(START, START)).isEqualTo("+00:00:00");
    assertThat(Durations.offset(START, START.plusSeconds(265))).isEqualTo("+00:04:25");
    assertThat(Durations.offset(START, START.plusSeconds(3599))).isEqualTo("+00:59:59");
    assertThat(Durations.offset(START, START.plusSeconds(3600))).isEqualTo("+01:00:00");
    assertThat(Durations.offset(START, START.plusSeconds(7 * 86_400 + 61))).isEqualTo("+168:01:01");
    assertThat(Durations.offset(START, START.minusSeconds(5))).as("before the start").isEqualTo("+00:00:00");
    assertThat(Durations.offset(START, START.plusMillis(1_999))).as("whole seconds").isEqualTo("+00:00:01");
  }

  @Test
  void everySecondOfTwoDaysReadsAsTheFormatPatternWritesIt() {
    for (long s = 0; s < 2 * 86_400; s++) {
      String expected = String.format(Locale.ROOT, "+%02d:%02d:%02d", s / 3600, (s % 3600) / 60, s % 60);
      assertThat(Durations.offset(START, START.plusSeconds(s))).isEqualTo(expected);
    }
  }
}
