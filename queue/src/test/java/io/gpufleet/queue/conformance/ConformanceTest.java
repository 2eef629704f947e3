package io.gpufleet.queue.conformance;

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
 * Runs every case translated from Kueue's own tests, grouped by area; a known difference is
 * reported as skipped with its reason, counted as not passing, and must still differ. The Kueue
 * table of docs/conformance.md must show what this suite counts.
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
  void everyCaseNamesItsUpstreamFileAndTestAndIsUnique() {
    List<UpstreamCase> all = ConformanceSuite.all();
    assertThat(all).allSatisfy(c -> {
      assertThat(c.file()).matches("pkg/\\S*_test\\.go");
      assertThat(c.it()).matches("Test\\w+: .+");
    });
    assertThat(all.stream().map(c -> c.file() + "#" + c.it()).distinct().count()).isEqualTo(all.size());
  }

  @Test
  void theCounterRunsEachCheck() {
    Runnable fails = () -> {
      throw new AssertionError("disagrees");
    };
    List<UpstreamCase> cases = List.of(UpstreamCase.of("a", "pkg/x_test.go", "passes", () -> {}),
        UpstreamCase.of("a", "pkg/x_test.go", "fails", fails),
        UpstreamCase.of("b", "pkg/x_test.go", "marked", () -> {}).differs("a reason"));
    assertThat(ConformanceSuite.counts(cases)).containsExactly(Map.entry("a", new ConformanceSuite.Count(2, 1)),
        Map.entry("b", new ConformanceSuite.Count(1, 0)));
  }

  @Test
  void everyKnownDifferenceStillDiffers() {
    assertThat(ConformanceSuite.all().stream().filter(c -> c.difference().isPresent()).filter(UpstreamCase::passes)
        .map(UpstreamCase::it)).isEmpty();
  }

  /** An area row: area, cases, passing, known differences (four columns, as Karpenter's table; the
   * kube-scheduler suite reads every three-column row of the page as its own). */
  private static final Pattern ROW = Pattern.compile("^\\| (\\S[^|]*?) \\| (\\d+) \\| (\\d+) \\| (\\d+) \\|$");

  static List<String> kueueSection() throws IOException {
    List<String> lines = Files.readAllLines(Path.of("..", "docs", "conformance.md"), StandardCharsets.UTF_8);
    int from = lines.indexOf("## Kueue");
    assertThat(from).as("docs/conformance.md has a '## Kueue' section").isNotNegative();
    int to = from + 1;
    while (to < lines.size() && !lines.get(to).startsWith("## ")) {
      to++;
    }
    return lines.subList(from, to);
  }

  @Test
  void theDocsTableShowsTheSuitesCounts() throws IOException {
    Map<String, ConformanceSuite.Count> expected = new LinkedHashMap<>(ConformanceSuite.counts(ConformanceSuite.all()));
    int cases = expected.values().stream().mapToInt(ConformanceSuite.Count::cases).sum();
    int passing = expected.values().stream().mapToInt(ConformanceSuite.Count::passing).sum();
    expected.put("total", new ConformanceSuite.Count(cases, passing));
    StringBuilder printed = new StringBuilder();
    expected.forEach((k, v) -> printed.append("| ").append(k).append(" | ").append(v.cases()).append(" | ")
        .append(v.passing()).append(" | ").append(v.cases() - v.passing()).append(" |\n"));
    System.out.print(printed);
    Map<String, ConformanceSuite.Count> rows = new LinkedHashMap<>();
    for (String line : kueueSection()) {
      Matcher m = ROW.matcher(line.strip());
      if (m.matches()) {
        int n = Integer.parseInt(m.group(2));
        int p = Integer.parseInt(m.group(3));
        assertThat(Integer.parseInt(m.group(4))).as(line).isEqualTo(n - p);
        rows.put(m.group(1), new ConformanceSuite.Count(n, p));
      }
    }
    assertThat(rows).as("Kueue table of docs/conformance.md; the suite prints:%n%s", printed)
        .containsExactlyEntriesOf(expected);
    String overview = Files.readAllLines(Path.of("..", "docs", "conformance.md"), StandardCharsets.UTF_8).stream()
        .filter(l -> l.startsWith("| Kueue")).findFirst().orElse("");
    assertThat(overview).as("overview row of docs/conformance.md").endsWith("| " + cases + " | " + passing + " |");
  }

  @Test
  void everyKnownDifferenceIsListedWithItsReason() throws IOException {
    String section = String.join("\n", kueueSection());
    for (UpstreamCase c : ConformanceSuite.all()) {
      if (c.difference().isPresent()) {
        assertThat(section).as("docs/conformance.md lists the known difference").contains(c.it());
      }
    }
  }
}
