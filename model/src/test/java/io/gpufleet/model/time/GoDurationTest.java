package io.gpufleet.model.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Go's time.ParseDuration syntax, including where it refuses. */
class GoDurationTest {

  @Test
  void readsGoSyntax() {
    assertThat(GoDuration.parse("1h30m")).isEqualTo(Duration.ofMinutes(90));
    assertThat(GoDuration.parse("1.5h")).isEqualTo(Duration.ofMinutes(90));
    assertThat(GoDuration.parse("250ms")).isEqualTo(Duration.ofMillis(250));
    assertThat(GoDuration.parse("0")).isEqualTo(Duration.ZERO);
  }

  @Test
  void refusesWhatGoRefuses() {
    assertThat(GoDuration.parse("forever")).isNull();
    assertThat(GoDuration.parse("1 h")).isNull();
    // Past int64 nanoseconds Go answers "invalid duration"; saturating would silently cap the wait.
    assertThat(GoDuration.parse("9999999999999999999h")).isNull();
    assertThat(GoDuration.parse("2562047h")).isEqualTo(Duration.ofHours(2562047));
    assertThat(GoDuration.parse("2562048h")).isNull();
    assertThat(GoDuration.parse("2562047h2562047h")).isNull();
  }
}
