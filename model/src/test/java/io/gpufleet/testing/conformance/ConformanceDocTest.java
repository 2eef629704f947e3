package io.gpufleet.testing.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConformanceDocTest {

  @Test
  void aTableIsReadByItsRowShape() {
    List<String> lines = List.of("| area | cases | passing | known differences |", "|---|---:|---:|---:|",
        "| `quota` | 8 | 7 | 1 |", "| total | 8 | 7 | 1 |", "| plugin | 3 | 3 |", "| GFD labels | pkg `x_test.go` | 30 | 19 |");
    assertThat(ConformanceDoc.table(lines, ConformanceDoc.AREA_CASES_PASSING_DIFFERENCES))
        .containsExactly(Map.entry("quota", new Count(8, 7)), Map.entry("total", new Count(8, 7)));
    assertThat(ConformanceDoc.table(lines, ConformanceDoc.AREA_CASES_PASSING))
        .containsExactly(Map.entry("plugin", new Count(3, 3)));
    // A four-column row of numbers has the upstream table's shape too: that suite keeps its own areas.
    assertThat(ConformanceDoc.table(lines.subList(4, 6), ConformanceDoc.AREA_UPSTREAM_CASES_PASSING))
        .containsExactly(Map.entry("GFD labels", new Count(30, 19)));
  }

  @Test
  void aDifferencesColumnMustAddUp() {
    assertThatThrownBy(() -> ConformanceDoc.table(List.of("| quota | 8 | 7 | 0 |"),
        ConformanceDoc.AREA_CASES_PASSING_DIFFERENCES)).isInstanceOf(AssertionError.class).hasMessageContaining("| quota |");
  }

  @Test
  void theCellsAndThePrintedTableSayTheCounts() {
    assertThat(ConformanceDoc.overviewCells(new Count(93, 92))).isEqualTo("| 93 | 92 |");
    assertThat(ConformanceDoc.readmeCells(new Count(93, 92))).isEqualTo("| 93 cases, 92 passing |");
    assertThat(ConformanceDoc.printed("area", Map.of("quota", new Count(8, 7)), true))
        .isEqualTo("| area | cases | passing | known differences |\n|---|---:|---:|---:|\n| quota | 8 | 7 | 1 |\n");
    assertThat(ConformanceDoc.printed("plugin", Map.of("NodeName", new Count(3, 3)), false))
        .isEqualTo("| plugin | cases | passing |\n|---|---:|---:|\n| NodeName | 3 | 3 |\n");
  }

  @Test
  void aKnownDifferenceMustBeNamedInItsSection() {
    List<UpstreamCase> cases = List.of(UpstreamCase.of("a", "f", "listed", () -> {}).differs("why"),
        UpstreamCase.of("a", "f", "not listed", () -> {}).differs("why"), UpstreamCase.of("a", "f", "agrees", () -> {}));
    assertThat(ConformanceDoc.unlistedDifferences(List.of("## X", "- listed: why"), cases)).containsExactly("not listed");
  }

  @Test
  void aSectionRunsToTheNextHeadingOfItsLevel() throws Exception {
    List<String> kueue = ConformanceDoc.section("## Kueue");
    assertThat(kueue.getFirst()).isEqualTo("## Kueue");
    assertThat(kueue.stream().skip(1)).noneMatch(l -> l.startsWith("## "));
  }
}
