package io.gpufleet.queue.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.testing.conformance.Cases;
import io.gpufleet.testing.conformance.ConformanceDoc;
import io.gpufleet.testing.conformance.Count;
import io.gpufleet.testing.conformance.UpstreamCase;
import io.gpufleet.testing.conformance.UpstreamSuiteTests;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Runs every case translated from Kueue's own tests, grouped by area; a known difference is
 * reported as skipped with its reason, counted as not passing, and must still differ. The Kueue
 * table of docs/conformance.md must show what this suite counts.
 */
class ConformanceTest implements UpstreamSuiteTests {

  @Override
  public List<UpstreamCase> cases() {
    return ConformanceSuite.all();
  }

  @Test
  void everyCaseNamesItsUpstreamFileAndTestAndIsUnique() {
    List<UpstreamCase> all = ConformanceSuite.all();
    assertThat(all).allSatisfy(c -> {
      assertThat(c.source()).matches("pkg/\\S*_test\\.go");
      assertThat(c.test()).matches("Test\\w+: .+");
    });
    assertThat(Cases.repeated(all)).isEmpty();
  }

  @Test
  void theDocsTableShowsTheSuitesCounts() throws IOException {
    Map<String, Count> expected = Count.perAreaAndTotal(ConformanceSuite.all(), "total");
    Count total = expected.get("total");
    String printed = ConformanceDoc.printed("area", expected, true);
    // Four columns, as Karpenter's table; the kube-scheduler suite reads every three-column row of the page as its own.
    assertThat(ConformanceDoc.table(ConformanceDoc.section("## Kueue"), ConformanceDoc.AREA_CASES_PASSING_DIFFERENCES))
        .as("Kueue table of docs/conformance.md; the suite prints:%n%s", printed).containsExactlyEntriesOf(expected);
    assertThat(ConformanceDoc.row(ConformanceDoc.page(), "| Kueue")).as("overview row of docs/conformance.md")
        .endsWith(ConformanceDoc.overviewCells(total));
  }

  @Test
  void everyKnownDifferenceIsListedWithItsReason() throws IOException {
    assertThat(ConformanceDoc.unlistedDifferences(ConformanceDoc.section("## Kueue"), ConformanceSuite.all()))
        .as("known differences docs/conformance.md does not list").isEmpty();
  }
}
