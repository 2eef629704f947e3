package io.gpufleet.autoscaler.conformance;

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
 * Runs every case translated from Karpenter's Ginkgo and e2e suites, concept pages and maintainers'
 * statements, grouped by area. A case the twin agrees with must pass; a known difference is reported
 * as skipped with its reason, never dropped, and must still differ.
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
      assertThat(c.source()).matches(SOURCE);
      assertThat(c.test()).isNotBlank();
    });
    assertThat(Cases.repeated(all)).isEmpty();
  }

  /**
   * Where a case may come from: a unit suite ({@code pkg/...}, {@code aws:pkg/...}), an e2e suite
   * (core's {@code test/suites/...}, the provider's {@code aws:test/suites/...}, whose scheduling
   * suite is a plain {@code .go} file), a karpenter.sh concept page ({@code docs:/docs/...}) or an
   * issue or pull request ({@code issue:owner/repo#n}).
   */
  static final String SOURCE = "(aws:)?pkg/\\S*_test\\.go|test/suites/\\S*_test\\.go|aws:test/suites/\\S*\\.go"
      + "|docs:/docs/[a-z0-9/-]+/|issue:[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+#[0-9]+";

  @Test
  void theSourcePatternAcceptsEachKindOfSourceAndNothingElse() {
    assertThat(List.of("pkg/controllers/disruption/consolidation_test.go", "aws:pkg/cloudprovider/suite_test.go",
        "test/suites/regression/drift_test.go", "aws:test/suites/scheduling/scheduling.go",
        "docs:/docs/concepts/disruption/", "issue:kubernetes-sigs/karpenter#3020")).allMatch(f -> f.matches(SOURCE));
    assertThat(List.of("pkg/controllers/disruption/consolidation.go", "test/suites/regression/drift.go",
        "docs:disruption", "issue:karpenter#3020", "issue:kubernetes-sigs/karpenter", "https://karpenter.sh/docs/"))
        .noneMatch(f -> f.matches(SOURCE));
  }

  @Test
  void theDocsTableShowsTheSuitesCounts() throws IOException {
    Map<String, Count> expected = Count.perAreaAndTotal(ConformanceSuite.all(), "total");
    Count total = expected.get("total");
    String printed = ConformanceDoc.printed("area", expected, true);

    assertThat(ConformanceDoc.table(ConformanceDoc.section("## Karpenter"), ConformanceDoc.AREA_CASES_PASSING_DIFFERENCES))
        .as("Karpenter table of docs/conformance.md; the suite prints:%n%s", printed).containsExactlyEntriesOf(expected);
    // The README's "How it is checked" table quotes the totals; the per-area table lives in docs/conformance.md.
    assertThat(ConformanceDoc.row(ConformanceDoc.readme(), "| Karpenter"))
        .as("Karpenter row of README.md's conformance table; the suite prints:%n%s", printed)
        .endsWith(ConformanceDoc.readmeCells(total));
    assertThat(ConformanceDoc.row(ConformanceDoc.page(), "| Karpenter")).as("overview row of docs/conformance.md")
        .endsWith(ConformanceDoc.overviewCells(total));
  }

  @Test
  void everyKnownDifferenceIsListedWithItsReason() throws IOException {
    assertThat(ConformanceDoc.unlistedDifferences(ConformanceDoc.section("## Karpenter"), ConformanceSuite.all()))
        .as("known differences docs/conformance.md does not list").isEmpty();
  }
}
