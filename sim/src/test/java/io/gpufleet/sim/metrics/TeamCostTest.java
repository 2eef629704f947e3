package io.gpufleet.sim.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Each namespace is charged the part of a card its pods held, for as long as they held it. */
class TeamCostTest {

  static final Instant T0 = Instant.parse("2026-01-05T09:00:00Z");

  static CardSpan span(String pod, String node, int gpu, double share, long fromMinutes, Long toMinutes) {
    return new CardSpan(pod, node, new CardSpan.Card(gpu, "GPU-" + node + "-" + gpu, "", share),
        T0.plusSeconds(60 * fromMinutes), Optional.ofNullable(toMinutes).map(m -> T0.plusSeconds(60 * m)));
  }

  @Test
  void aWholeCardIsChargedAtItsNodesPriceOverItsCards() {
    // A 4-GPU node at $8/h: $2 per GPU-hour; one pod holds one card for 90 minutes.
    TeamCost t = TeamCost.of(List.of(span("ml/trainer", "n1", 0, 1, 0, 90L)), Map.of("n1", 2.0),
        T0.plusSeconds(7200), 8.0, 16.0);
    assertThat(t.byNamespace()).containsOnlyKeys("ml");
    assertThat(t.byNamespace().get("ml").gpuHours()).isCloseTo(1.5, within(1e-9));
    assertThat(t.byNamespace().get("ml").dollars()).isCloseTo(3.0, within(1e-9));
    assertThat(t.idle().gpuHours()).isCloseTo(6.5, within(1e-9));
    assertThat(t.idle().dollars()).isCloseTo(13.0, within(1e-9));
  }

  @Test
  void replicasOfATimeSlicedCardAreChargedAsHeldAndTheRestIsIdle() {
    // Four replicas of one card; team a holds two for an hour, team b one for half an hour.
    TeamCost t = TeamCost.of(List.of(span("a/p1", "n1", 0, 0.25, 0, 60L), span("a/p2", "n1", 0, 0.25, 0, 60L),
        span("b/p3", "n1", 0, 0.25, 30, 60L)), Map.of("n1", 1.0), T0.plusSeconds(3600), 1.0, 1.0);
    assertThat(t.byNamespace().get("a").gpuHours()).isCloseTo(0.5, within(1e-9));
    assertThat(t.byNamespace().get("b").gpuHours()).isCloseTo(0.125, within(1e-9));
    assertThat(t.idle().gpuHours()).isCloseTo(0.375, within(1e-9));
    assertThat(t.idle().dollars()).isCloseTo(0.375, within(1e-9));
  }

  @Test
  void holdingsOverTheWholeCardSplitItInProportion() {
    // Three pods share one DRA claim's card (each holding it whole): a third each, nothing idle.
    TeamCost t = TeamCost.of(List.of(span("a/p1", "n1", 0, 1, 0, null), span("a/p2", "n1", 0, 1, 0, null),
        span("b/p3", "n1", 0, 1, 0, null)), Map.of("n1", 3.0), T0.plusSeconds(3600), 1.0, 3.0);
    assertThat(t.byNamespace().get("a").gpuHours()).isCloseTo(2.0 / 3, within(1e-9));
    assertThat(t.byNamespace().get("b").dollars()).isCloseTo(1.0, within(1e-9));
    assertThat(t.idle().gpuHours()).isCloseTo(0, within(1e-9));
  }

  @Test
  void aPodLeavingAsAnotherArrivesNeverSharesTheCardWithIt() {
    TeamCost t = TeamCost.of(List.of(span("a/old", "n1", 0, 1, 0, 30L), span("b/new", "n1", 0, 1, 30, 60L)),
        Map.of("n1", 1.0), T0.plusSeconds(3600), 1.0, 1.0);
    assertThat(t.byNamespace().get("a").gpuHours()).isCloseTo(0.5, within(1e-9));
    assertThat(t.byNamespace().get("b").gpuHours()).isCloseTo(0.5, within(1e-9));
  }

  @Test
  void aNodeWithNoPriceCountsGpuHoursAndNoDollarsAndCardsAreChargedApart() {
    TeamCost t = TeamCost.of(List.of(span("a/p", "static", 0, 1, 0, 60L), span("a/q", "static", 1, 1, 0, 60L)),
        Map.of(), T0.plusSeconds(3600), 2.0, 0.0);
    assertThat(t.byNamespace().get("a").gpuHours()).isCloseTo(2.0, within(1e-9));
    assertThat(t.byNamespace().get("a").dollars()).isZero();
  }

  @Test
  void aPodKeyWithoutNamespaceIsDefaults() {
    assertThat(TeamCost.namespace("solo")).isEqualTo("default");
    assertThat(TeamCost.namespace("team-a/x")).isEqualTo("team-a");
  }
}
