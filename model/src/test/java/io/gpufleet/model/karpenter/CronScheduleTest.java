package io.gpufleet.model.karpenter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.model.workload.IntOrPercent;
import io.gpufleet.testing.property.Gen;
import io.gpufleet.testing.property.Property;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CronScheduleTest {

  @Test
  void findsTheLatestFiringWithinTheHorizon() {
    CronSchedule weekdayNine = CronSchedule.parse("0 9 * * mon-fri");
    // 2026-01-07 is a Wednesday.
    Instant wed1030 = Instant.parse("2026-01-07T10:30:00Z");
    assertThat(weekdayNine.lastFiringAtOrBefore(wed1030, Duration.ofHours(2)))
        .contains(Instant.parse("2026-01-07T09:00:00Z"));
    assertThat(weekdayNine.lastFiringAtOrBefore(wed1030, Duration.ofMinutes(60))).isEmpty();
    // From Monday 08:00 the previous firing is Friday 09:00.
    assertThat(weekdayNine.lastFiringAtOrBefore(Instant.parse("2026-01-05T08:00:00Z"), Duration.ofDays(4)))
        .contains(Instant.parse("2026-01-02T09:00:00Z"));
  }

  @Test
  void macrosAndSteps() {
    assertThat(CronSchedule.parse("@daily").lastFiringAtOrBefore(Instant.parse("2026-03-01T05:00:00Z"),
        Duration.ofDays(1))).contains(Instant.parse("2026-03-01T00:00:00Z"));
    assertThat(CronSchedule.parse("*/15 * * * *").lastFiringAtOrBefore(Instant.parse("2026-03-01T05:44:59Z"),
        Duration.ofHours(1))).contains(Instant.parse("2026-03-01T05:30:00Z"));
  }

  @Test
  void badSchedulesAreNamed() {
    assertThatThrownBy(() -> CronSchedule.parse("0 25 * * *")).hasMessage("hour: \"25\" is outside 0-23");
    assertThatThrownBy(() -> CronSchedule.parse("0 9 * *")).hasMessageStartingWith("expected 5 fields");
  }

  @Test
  void theFiringFoundFiresAndNothingLaterDoes() {
    CronSchedule s = CronSchedule.parse("30 */6 1-10 * *");
    Property.check(20261206L, 200, Gen.longs(0, 400_000_000), minutes -> {
      Instant now = Instant.parse("2026-01-01T00:00:00Z").plusSeconds(minutes * 60 % 31_536_000);
      Optional<Instant> found = s.lastFiringAtOrBefore(now, Duration.ofDays(40));
      assertThat(found).isPresent();
      assertThat(s.firesAt(java.time.LocalDateTime.ofInstant(found.get(), java.time.ZoneOffset.UTC))).isTrue();
      for (Instant t = found.get().plusSeconds(60); !t.isAfter(now); t = t.plusSeconds(60)) {
        assertThat(s.firesAt(java.time.LocalDateTime.ofInstant(t, java.time.ZoneOffset.UTC))).isFalse();
      }
    });
  }

  @Test
  void budgetsAreActiveForTheirDurationAndRoundPercentagesUp() {
    Budget nights = new Budget(new IntOrPercent.Count(0), Optional.of(CronSchedule.parse("0 22 * * *")),
        Optional.of(Duration.ofHours(8)), Set.of(DisruptionReason.UNDERUTILIZED));
    assertThat(nights.isActive(Instant.parse("2026-01-07T23:00:00Z"))).isTrue();
    assertThat(nights.isActive(Instant.parse("2026-01-08T05:59:59Z"))).isTrue();
    assertThat(nights.isActive(Instant.parse("2026-01-08T06:00:00Z"))).isFalse();
    assertThat(nights.appliesTo(DisruptionReason.EMPTY)).isFalse();
    assertThat(Budget.DEFAULT.allowed(10)).isEqualTo(1);
    assertThat(Budget.DEFAULT.allowed(11)).isEqualTo(2);
    assertThat(Budget.nodes(new IntOrPercent.Percent(5)).allowed(10)).isEqualTo(1);
  }

  @Test
  void gteAndLteBecomeStrictBounds() {
    var gte = NodePoolRequirement.of("karpenter.k8s.aws/instance-gpu-count", RequirementOperator.GTE, "2");
    assertThat(gte.toSelectorRequirement().matches(io.gpufleet.model.label.Labels.of(
        "karpenter.k8s.aws/instance-gpu-count", "2"))).isTrue();
    assertThat(gte.toSelectorRequirement().matches(io.gpufleet.model.label.Labels.of(
        "karpenter.k8s.aws/instance-gpu-count", "1"))).isFalse();
  }
}
