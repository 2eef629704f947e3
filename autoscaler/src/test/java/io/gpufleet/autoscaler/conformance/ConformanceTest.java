package io.gpufleet.autoscaler.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every case translated from Karpenter's Ginkgo and e2e suites, concept pages and maintainers'
 * statements, grouped by area. A case the twin agrees with must pass; a known difference is reported
 * as skipped with its reason, never dropped, and must still differ.
 */
class ConformanceTest {

  @TestFactory
  Stream<DynamicNode> upstreamCases() {
    Map<String, List<DynamicNode>> byArea = new LinkedHashMap<>();
    for (UpstreamCase c : ConformanceSuite.all()) {
      byArea.computeIfAbsent(c.area(), k -> new ArrayList<>()).add(
          DynamicTest.dynamicTest(c.it() + " [" + c.file() + "]", () -> {
            Assumptions.assumeTrue(c.difference().isEmpty(), () -> "differs: " + c.difference().orElse(""));
            c.check().run();
          }));
    }
    return byArea.entrySet().stream().map(e -> DynamicContainer.dynamicContainer(e.getKey(), e.getValue()));
  }

  @Test
  void everyCaseNamesItsUpstreamFileAndIsUnique() {
    List<UpstreamCase> all = ConformanceSuite.all();
    assertThat(all).allSatisfy(c -> {
      assertThat(c.file()).matches(SOURCE);
      assertThat(c.it()).isNotBlank();
    });
    assertThat(all.stream().map(c -> c.file() + "#" + c.it()).distinct().count()).isEqualTo(all.size());
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
  void theCounterRunsEachCheck() {
    // An unmarked case whose check fails is not counted as passing; a marked one never is.
    Runnable fails = () -> {
      throw new AssertionError("disagrees");
    };
    Runnable throwsOnInput = () -> {
      throw new IllegalStateException("the twin refused upstream's input");
    };
    List<UpstreamCase> cases = List.of(UpstreamCase.of("a", "pkg/x_test.go", "passes", () -> {}),
        UpstreamCase.of("a", "pkg/x_test.go", "fails", fails),
        UpstreamCase.of("a", "pkg/x_test.go", "throws", throwsOnInput),
        UpstreamCase.of("b", "pkg/x_test.go", "marked", fails).differs("a reason"));
    assertThat(ConformanceSuite.counts(cases)).containsExactly(Map.entry("a", new ConformanceSuite.Count(3, 1)),
        Map.entry("b", new ConformanceSuite.Count(1, 0)));
  }

  @Test
  void everyKnownDifferenceStillDiffers() {
    // A difference that got fixed must be unmarked, so the table never undercounts.
    assertThat(ConformanceSuite.all().stream().filter(c -> c.difference().isPresent()).filter(UpstreamCase::passes)
        .map(UpstreamCase::it)).isEmpty();
  }

  private static final Pattern ROW = Pattern.compile("^\\| (\\S[^|]*?) \\| (\\d+) \\| (\\d+) \\| (\\d+) \\|$");

  /** The Karpenter section of docs/conformance.md: from its heading to the next one of the same level. */
  static List<String> karpenterSection() throws IOException {
    List<String> lines = Files.readAllLines(Path.of("..", "docs", "conformance.md"), StandardCharsets.UTF_8);
    int from = lines.indexOf("## Karpenter");
    assertThat(from).as("docs/conformance.md has a '## Karpenter' section").isNotNegative();
    int to = from + 1;
    while (to < lines.size() && !lines.get(to).startsWith("## ")) {
      to++;
    }
    return lines.subList(from, to);
  }

  /** The rows of an area table (area, cases, passing, known differences), whose last column must add up. */
  static Map<String, ConformanceSuite.Count> table(List<String> section) {
    Map<String, ConformanceSuite.Count> rows = new LinkedHashMap<>();
    for (String line : section) {
      Matcher m = ROW.matcher(line.strip());
      if (m.matches()) {
        int n = Integer.parseInt(m.group(2));
        int p = Integer.parseInt(m.group(3));
        assertThat(Integer.parseInt(m.group(4))).as(line).isEqualTo(n - p);
        rows.put(m.group(1).replace("`", ""), new ConformanceSuite.Count(n, p));
      }
    }
    return rows;
  }

  /** The README's "How it is checked" row for Karpenter, or "" when it has none. */
  static String readmeRow() throws IOException {
    return Files.readAllLines(Path.of("..", "README.md"), StandardCharsets.UTF_8).stream()
        .filter(l -> l.startsWith("| Karpenter")).findFirst().orElse("");
  }

  @Test
  void theDocsTableShowsTheSuitesCounts() throws IOException {
    Map<String, ConformanceSuite.Count> counts = ConformanceSuite.counts();
    int cases = 0;
    int passing = 0;
    StringBuilder printed = new StringBuilder("| area | cases | passing | known differences |\n|---|---:|---:|---:|\n");
    for (var e : counts.entrySet()) {
      int n = e.getValue().cases();
      int p = e.getValue().passing();
      printed.append("| ").append(e.getKey()).append(" | ").append(n).append(" | ").append(p).append(" | ")
          .append(n - p).append(" |\n");
      cases += n;
      passing += p;
    }
    printed.append("| total | ").append(cases).append(" | ").append(passing).append(" | ").append(cases - passing)
        .append(" |\n");
    System.out.print(printed);

    Map<String, ConformanceSuite.Count> expected = new LinkedHashMap<>(counts);
    expected.put("total", new ConformanceSuite.Count(cases, passing));
    assertThat(table(karpenterSection())).as("Karpenter table of docs/conformance.md; the suite prints:%n%s", printed)
        .containsExactlyEntriesOf(expected);
    // The README's "How it is checked" table quotes the totals; the per-area table lives in docs/conformance.md.
    assertThat(readmeRow()).as("Karpenter row of README.md's conformance table; the suite prints:%n%s", printed)
        .endsWith("| " + cases + " cases, " + passing + " passing |");
    String overview = Files.readAllLines(Path.of("..", "docs", "conformance.md"), StandardCharsets.UTF_8).stream()
        .filter(l -> l.startsWith("| Karpenter")).findFirst().orElse("");
    assertThat(overview).as("overview row of docs/conformance.md").endsWith("| " + cases + " | " + passing + " |");
  }

  @Test
  void everyKnownDifferenceIsListedWithItsReason() throws IOException {
    String section = String.join("\n", karpenterSection());
    for (UpstreamCase c : ConformanceSuite.all()) {
      if (c.difference().isPresent()) {
        assertThat(section).as("docs/conformance.md lists the known difference").contains(c.it());
      }
    }
  }
}
