package io.gpufleet.model.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class KubeDurationTest {

  @Test
  void formatIsExactGoSyntaxWithoutTrailingZeroUnits() {
    assertThat(KubeDuration.format(Duration.ZERO)).isEqualTo("0s");
    assertThat(KubeDuration.format(Duration.ofSeconds(45))).isEqualTo("45s");
    assertThat(KubeDuration.format(Duration.ofMinutes(2))).isEqualTo("2m");
    assertThat(KubeDuration.format(Duration.ofSeconds(252))).isEqualTo("4m12s");
    assertThat(KubeDuration.format(Duration.ofMinutes(90))).isEqualTo("1h30m");
    assertThat(KubeDuration.format(Duration.ofHours(720))).isEqualTo("720h");
    // Go keeps an inner zero unit: 1h0m5s.
    assertThat(KubeDuration.format(Duration.ofSeconds(3605))).isEqualTo("1h0m5s");
    assertThat(KubeDuration.format(Duration.ofMillis(250))).isEqualTo("250ms");
    assertThat(KubeDuration.format(Duration.ofMillis(1500))).isEqualTo("1.5s");
    assertThat(KubeDuration.format(Duration.ofMillis(90_500))).isEqualTo("1m30.5s");
    assertThat(KubeDuration.format(Duration.ofNanos(1500))).isEqualTo("1.5µs");
    assertThat(KubeDuration.format(Duration.ofSeconds(-30))).isEqualTo("-30s");
  }

  @Test
  void formatNeverLeaksJavaIsoSyntax() {
    for (long s = 0; s < 200_000; s += 37) {
      assertThat(KubeDuration.format(Duration.ofSeconds(s))).doesNotContain("PT").matches("(\\d+h)?(\\d+m)?(\\d+s)?");
    }
  }

  @Test
  void ageRoundsAsKubectlHumanDurationDoes() {
    // The branch boundaries of HumanDuration in k8s.io/apimachinery/pkg/util/duration.
    assertThat(KubeDuration.age(Duration.ofSeconds(119))).isEqualTo("119s");
    assertThat(KubeDuration.age(Duration.ofSeconds(120))).isEqualTo("2m");
    assertThat(KubeDuration.age(Duration.ofSeconds(290))).isEqualTo("4m50s");
    assertThat(KubeDuration.age(Duration.ofSeconds(931))).isEqualTo("15m");
    assertThat(KubeDuration.age(Duration.ofMinutes(179))).isEqualTo("179m");
    assertThat(KubeDuration.age(Duration.ofMinutes(185))).isEqualTo("3h5m");
    assertThat(KubeDuration.age(Duration.ofHours(20))).isEqualTo("20h");
    assertThat(KubeDuration.age(Duration.ofHours(52))).isEqualTo("2d4h");
    assertThat(KubeDuration.age(Duration.ofDays(30))).isEqualTo("30d");
    assertThat(KubeDuration.age(Duration.ofDays(365 * 2 + 30))).isEqualTo("2y30d");
    assertThat(KubeDuration.age(Duration.ofDays(365 * 9))).isEqualTo("9y");
    assertThat(KubeDuration.age(Duration.ofSeconds(-5))).isEqualTo("0s");
  }
}
