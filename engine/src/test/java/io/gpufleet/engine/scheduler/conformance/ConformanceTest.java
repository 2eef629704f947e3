package io.gpufleet.engine.scheduler.conformance;

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
 * Runs every case translated from kube-scheduler's unit tests, grouped by plugin. A case the twin
 * agrees with must pass; a known difference is reported as skipped with its reason, never dropped.
 * The per-plugin table of docs/conformance.md must equal the suite's counts.
 */
class ConformanceTest {

  @TestFactory
  Stream<DynamicNode> upstreamCases() {
    return Cases.byArea(ConformanceSuite.all());
  }

  @Test
  void everyCaseNamesItsUpstreamFileAndIsUnique() {
    List<UpstreamCase> all = ConformanceSuite.all();
    assertThat(all).allSatisfy(c -> {
      assertThat(c.source()).matches("pkg/(scheduler|apis/core/validation|apis/resource/validation"
          + "|controller/devicetainteviction)/.*_test\\.go"
          + "|staging/src/k8s\\.io/dynamic-resource-allocation/(structured|cel)/.*_test(ing)?\\.go"
          + "|test/e2e/dra/dra\\.go");
      assertThat(c.test()).isNotBlank();
    });
    assertThat(Cases.repeated(all)).isEmpty();
  }

  @Test
  void everyKnownDifferenceStillDiffers() {
    // A difference that got fixed must be unmarked, so the table never undercounts.
    assertThat(Cases.differencesThatPass(ConformanceSuite.all())).isEmpty();
  }

  @Test
  void theDocsTableShowsTheSuitesCounts() throws IOException {
    Map<String, Count> expected = new LinkedHashMap<>(Count.perArea(ConformanceSuite.all()));
    Count total = Count.total(expected.values());
    expected.put("total", total);
    String printed = ConformanceDoc.printed("plugin", expected, false);
    System.out.print(printed);

    // The plugin table's three-column rows are the only ones of their shape on the page.
    List<String> page = ConformanceDoc.page();
    assertThat(ConformanceDoc.table(page, ConformanceDoc.AREA_CASES_PASSING))
        .as("docs/conformance.md table; the suite prints:%n%s", printed).containsExactlyEntriesOf(expected);
    assertThat(ConformanceDoc.row(page, "| kube-scheduler")).as("overview row of docs/conformance.md")
        .endsWith(ConformanceDoc.overviewCells(total));
    List<String> readme = ConformanceDoc.readme();
    assertThat(String.join("\n", readme))
        .contains("**Conformance: " + total.cases() + " upstream-derived cases, " + total.passing() + " passing**");
    assertThat(ConformanceDoc.row(readme, "| kube-scheduler")).as("README row").endsWith(ConformanceDoc.readmeCells(total));
  }
}
