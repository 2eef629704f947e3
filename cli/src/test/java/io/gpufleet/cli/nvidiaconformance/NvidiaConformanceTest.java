package io.gpufleet.cli.nvidiaconformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * The NVIDIA conformance suite: every case translated from NVIDIA/k8s-device-plugin, NVIDIA/mig-parted
 * and the GPU Operator's stock config, grouped by area. A known difference is reported as skipped
 * with its reason and counted as not passing; the per-area table of docs/conformance.md must equal
 * the counts. It lives in the cli module, the first that sees both the manifest decoders and the engine.
 */
class NvidiaConformanceTest {

  static List<NvidiaCase> all() {
    List<NvidiaCase> all = new ArrayList<>();
    all.addAll(PluginConfigCases.cases());
    all.addAll(MigPartedSpecCases.cases());
    all.addAll(MigLayoutCases.cases());
    all.addAll(DevicePluginCases.cases());
    all.addAll(ResourceLabelerCases.cases());
    all.addAll(MigStrategyLabelCases.cases());
    return all;
  }

  record Count(int cases, int passing) {}

  static Map<String, Count> counts() {
    Map<String, Count> counts = new LinkedHashMap<>();
    for (NvidiaCase c : all()) {
      boolean pass = c.difference().isEmpty() && c.passes();
      counts.merge(c.area(), new Count(1, pass ? 1 : 0),
          (a, b) -> new Count(a.cases() + b.cases(), a.passing() + b.passing()));
    }
    return counts;
  }

  @TestFactory
  Stream<DynamicNode> upstreamCases() {
    Map<String, List<DynamicNode>> byArea = new LinkedHashMap<>();
    for (NvidiaCase c : all()) {
      byArea.computeIfAbsent(c.area(), k -> new ArrayList<>()).add(
          DynamicTest.dynamicTest(c.test() + " [" + c.file() + "]", () -> {
            Assumptions.assumeTrue(c.difference().isEmpty(), () -> "differs: " + c.difference().orElse(""));
            c.check().run();
          }));
    }
    return byArea.entrySet().stream().map(e -> DynamicContainer.dynamicContainer(e.getKey(), e.getValue()));
  }

  @Test
  void everyCaseNamesItsUpstreamFileAndTestAndIsUnique() {
    List<NvidiaCase> all = all();
    assertThat(all).hasSizeGreaterThanOrEqualTo(80);
    assertThat(all).allSatisfy(c -> {
      assertThat(c.file()).isNotBlank();
      assertThat(c.test()).isNotBlank();
    });
    assertThat(all.stream().map(c -> c.file() + "#" + c.test()).distinct().count()).isEqualTo(all.size());
  }

  @Test
  void everyKnownDifferenceStillDiffers() {
    assertThat(all().stream().filter(c -> c.difference().isPresent()).filter(NvidiaCase::passes)
        .map(NvidiaCase::test)).isEmpty();
  }

  /** Rows of the NVIDIA area table: {@code | area | upstream | cases | passing |}. */
  private static final Pattern ROW = Pattern.compile("^\\| (\\S[^|]*?) \\| [^|]+ \\| (\\d+) \\| (\\d+) \\|$");
  private static final Set<String> PLUGIN_AREAS = Set.of(PluginConfigCases.AREA, DevicePluginCases.ALLOC,
      DevicePluginCases.GFD, DevicePluginCases.MPS, DevicePluginCases.SELECT);

  @Test
  void theDocsTableShowsTheSuitesCounts() throws IOException {
    Map<String, Count> counts = counts();
    StringBuilder printed = new StringBuilder();
    counts.forEach((k, v) -> printed.append(k).append(": ").append(v.cases()).append(" cases, ")
        .append(v.passing()).append(" passing\n"));
    System.out.print(printed);
    List<String> lines = Files.readAllLines(Path.of("..", "docs", "conformance.md"), StandardCharsets.UTF_8);
    Map<String, Count> documented = new LinkedHashMap<>();
    for (String line : lines) {
      Matcher m = ROW.matcher(line.strip());
      if (m.matches() && (counts.containsKey(m.group(1)) || m.group(1).startsWith("NVIDIA total"))) {
        documented.put(m.group(1), new Count(Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))));
      }
    }
    Map<String, Count> expected = new LinkedHashMap<>(counts);
    expected.put("NVIDIA total", sum(counts, counts.keySet()));
    assertThat(documented).as("docs/conformance.md NVIDIA table; the suite counts:%n%s", printed)
        .containsExactlyEntriesOf(expected);
    Count plugin = sum(counts, PLUGIN_AREAS);
    Count mig = sum(counts, Set.of(MigPartedSpecCases.AREA, MigLayoutCases.AREA));
    assertThat(overview(lines, "| NVIDIA device plugin")).endsWith("| " + plugin.cases() + " | " + plugin.passing() + " |");
    assertThat(overview(lines, "| NVIDIA MIG manager")).endsWith("| " + mig.cases() + " | " + mig.passing() + " |");
    // The README's conformance rows say the same.
    List<String> readme = Files.readAllLines(Path.of("..", "README.md"), StandardCharsets.UTF_8);
    assertThat(overview(readme, "| NVIDIA device plugin")).as("README row")
        .endsWith("| " + plugin.cases() + " cases, " + plugin.passing() + " passing |");
    assertThat(overview(readme, "| NVIDIA MIG manager")).as("README row")
        .endsWith("| " + mig.cases() + " cases, " + mig.passing() + " passing |");
  }

  private static Count sum(Map<String, Count> counts, Set<String> areas) {
    int cases = 0;
    int passing = 0;
    for (var e : counts.entrySet()) {
      if (areas.contains(e.getKey())) {
        cases += e.getValue().cases();
        passing += e.getValue().passing();
      }
    }
    return new Count(cases, passing);
  }

  private static String overview(List<String> lines, String prefix) {
    return lines.stream().filter(l -> l.startsWith(prefix)).findFirst().orElse("");
  }
}
