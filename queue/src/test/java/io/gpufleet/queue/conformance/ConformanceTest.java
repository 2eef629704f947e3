package io.gpufleet.queue.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.testing.conformance.Cases;
import io.gpufleet.testing.conformance.ConformanceDoc;
import io.gpufleet.testing.conformance.Count;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every case translated from Kueue's own tests, grouped by area; a known difference is
 * reported as skipped with its reason, counted as not passing, and must still differ. The Kueue
 * table of docs/conformance.md must show what this suite counts.
 */
class ConformanceTest {

  @TestFactory
  Stream<DynamicNode> upstreamCases() {
    return Cases.byArea(ConformanceSuite.all());
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
  void everyKnownDifferenceStillDiffers() {
    assertThat(Cases.differencesThatPass(ConformanceSuite.all())).isEmpty();
  }

  @Test
  void theDocsTableShowsTheSuitesCounts() throws IOException {
    Map<String, Count> expected = new LinkedHashMap<>(Count.perArea(ConformanceSuite.all()));
    Count total = Count.total(expected.values());
    expected.put("total", total);
    String printed = ConformanceDoc.printed("area", expected, true);
    System.out.print(printed);
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
