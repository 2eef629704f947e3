package io.gpufleet.engine.scheduler.conformance;

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
 * Runs every case translated from kube-scheduler's unit tests, grouped by plugin. A case the twin
 * agrees with must pass; a known difference is reported as skipped with its reason, never dropped.
 * The per-plugin table of docs/conformance.md must equal the suite's counts.
 */
class ConformanceTest implements UpstreamSuiteTests {

  @Override
  public List<UpstreamCase> cases() {
    return ConformanceSuite.all();
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
  void theDocsTableShowsTheSuitesCounts() throws IOException {
    Map<String, Count> expected = Count.perAreaAndTotal(ConformanceSuite.all(), "total");
    Count total = expected.get("total");
    String printed = ConformanceDoc.printed("plugin", expected, false);

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
