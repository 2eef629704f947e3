package io.gpufleet.engine.scheduler.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * Runs every case translated from kube-scheduler's unit tests, grouped by plugin. A case the twin
 * agrees with must pass; a known difference is reported as skipped with its reason, never dropped.
 * The per-plugin table of docs/conformance.md must equal the suite's counts.
 */
class ConformanceTest {

  @TestFactory
  Stream<DynamicNode> upstreamCases() {
    Map<String, List<DynamicNode>> byPlugin = new LinkedHashMap<>();
    for (UpstreamCase c : ConformanceSuite.all()) {
      byPlugin.computeIfAbsent(c.plugin(), k -> new java.util.ArrayList<>()).add(
          DynamicTest.dynamicTest(c.name() + " [" + c.file() + "]", () -> {
            Assumptions.assumeTrue(c.difference().isEmpty(), () -> "differs: " + c.difference().orElse(""));
            c.check().run();
          }));
    }
    return byPlugin.entrySet().stream().map(e -> DynamicContainer.dynamicContainer(e.getKey(), e.getValue()));
  }

  @Test
  void everyCaseNamesItsUpstreamFileAndIsUnique() {
    List<UpstreamCase> all = ConformanceSuite.all();
    assertThat(all).allSatisfy(c -> {
      assertThat(c.file()).matches("pkg/(scheduler|apis/core/validation|apis/resource/validation"
          + "|controller/devicetainteviction)/.*_test\\.go"
          + "|staging/src/k8s\\.io/dynamic-resource-allocation/(structured|cel)/.*_test(ing)?\\.go"
          + "|test/e2e/dra/dra\\.go");
      assertThat(c.name()).isNotBlank();
    });
    assertThat(all.stream().map(c -> c.file() + "#" + c.name()).distinct().count()).isEqualTo(all.size());
  }

  @Test
  void everyKnownDifferenceStillDiffers() {
    // A difference that got fixed must be unmarked, so the table never undercounts.
    assertThat(ConformanceSuite.all().stream().filter(c -> c.difference().isPresent()).filter(UpstreamCase::passes)
        .map(UpstreamCase::name)).isEmpty();
  }

  private static final Pattern ROW = Pattern.compile("^\\| (\\S[^|]*?) \\| (\\d+) \\| (\\d+) \\|$");

  @Test
  void theDocsTableShowsTheSuitesCounts() throws IOException {
    Map<String, ConformanceSuite.Count> counts = ConformanceSuite.counts();
    int cases = 0;
    int passing = 0;
    StringBuilder printed = new StringBuilder("| plugin | cases | passing |\n|---|---:|---:|\n");
    for (var e : counts.entrySet()) {
      printed.append("| ").append(e.getKey()).append(" | ").append(e.getValue().cases()).append(" | ")
          .append(e.getValue().passing()).append(" |\n");
      cases += e.getValue().cases();
      passing += e.getValue().passing();
    }
    printed.append("| total | ").append(cases).append(" | ").append(passing).append(" |\n");
    System.out.print(printed);

    Map<String, ConformanceSuite.Count> documented = new LinkedHashMap<>();
    for (String line : Files.readAllLines(Path.of("..", "docs", "conformance.md"), StandardCharsets.UTF_8)) {
      Matcher m = ROW.matcher(line.strip());
      if (m.matches()) {
        documented.put(m.group(1).replace("`", ""), new ConformanceSuite.Count(Integer.parseInt(m.group(2)),
            Integer.parseInt(m.group(3))));
      }
    }
    Map<String, ConformanceSuite.Count> expected = new LinkedHashMap<>(counts);
    expected.put("total", new ConformanceSuite.Count(cases, passing));
    assertThat(documented).as("docs/conformance.md table; the suite prints:%n%s", printed)
        .containsExactlyEntriesOf(expected);
    String overview = Files.readAllLines(Path.of("..", "docs", "conformance.md"), StandardCharsets.UTF_8).stream()
        .filter(l -> l.startsWith("| kube-scheduler")).findFirst().orElse("");
    assertThat(overview).as("overview row of docs/conformance.md").endsWith("| " + cases + " | " + passing + " |");
    String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
    assertThat(readme).contains("**Conformance: " + cases + " upstream-derived cases, " + passing + " passing**");
    assertThat(readme.lines().filter(l -> l.startsWith("| kube-scheduler")).findFirst().orElse(""))
        .as("README row").endsWith("| " + cases + " cases, " + passing + " passing |");
  }
}
