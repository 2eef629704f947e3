package io.gpufleet.report.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.metrics.CardSpan;
import io.gpufleet.sim.metrics.Metrics;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The comparison's card figures from the card spans of a run. */
class RunComparisonTest {

  static final Instant T0 = Instant.parse("2026-01-05T00:00:00Z");

  static CardSpan span(String pod, String node, int gpu, String detail, int from, Integer to) {
    return new CardSpan(pod, node, new CardSpan.Card(gpu, "GPU-" + node + gpu, detail, 1), T0.plusSeconds(from),
        Optional.ofNullable(to).map(T0::plusSeconds));
  }

  static Metrics metrics(List<CardSpan> spans) {
    return new Metrics(new TreeMap<>(), new TreeMap<>(), new TreeMap<>(), 0, 0, List.of(), new TreeMap<>(),
        new TreeMap<>(), new TreeMap<>(), spans, new TreeMap<>(), 0, T0.plusSeconds(600));
  }

  @Test
  void thePeakCountsPodsHoldingOneCardAtTheSameInstantAndAPodLeavingAsAnotherArrivesIsNotOverlap() {
    Metrics m = metrics(List.of(
        span("a", "n", 0, "time-slicing, 4 replicas", 0, 100),
        span("b", "n", 0, "time-slicing, 4 replicas", 10, null),
        span("c", "n", 0, "time-slicing, 4 replicas", 100, null),
        span("d", "n", 1, "", 0, null),
        span("e", "m", 0, "", 0, null)));
    // a and b overlap, c starts as a ends: at most two on n/0 at once.
    assertThat(RunComparison.peakPerCard(m)).isEqualTo(2);
    assertThat(RunComparison.cards(m)).isEqualTo(3);
    // A whole card held alone is named for what it is: exclusive.
    assertThat(RunComparison.sharedAs(m)).isEqualTo("exclusive, time-slicing, 4 replicas");
  }

  @Test
  void aRunWithNoCardsHasNoPeakAndNoSharing() {
    Metrics m = metrics(List.of());
    assertThat(RunComparison.peakPerCard(m)).isZero();
    assertThat(RunComparison.cards(m)).isZero();
    assertThat(RunComparison.sharedAs(m)).isEqualTo("-");
  }

  @Test
  void aLongValueGoesBelowTheTableWithBothRunsNamedAndShortRowsStayInIt() {
    String longA = "1 pod(s): " + "x".repeat(RunComparison.WIDEST_CELL);
    String out = RunComparison.render("run-a", "run-b", List.of(
        List.of("cost", "$1.00", "$2.00"),
        List.of("why pods waited", longA, "none")));
    String table = out.substring(0, out.indexOf("\n\n") + 1);
    assertThat(table).containsPattern("cost +\\$1.00 +\\$2.00").doesNotContain("why pods waited");
    assertThat(out.substring(table.length())).isEqualTo(
        "\nwhy pods waited\n  run-a: " + longA + "\n  run-b: none\n");
    assertThat(RunComparison.render("run-a", "run-b", List.of(List.of("cost", "$1.00", "$2.00"))))
        .doesNotContain("\n\n");
  }
}
