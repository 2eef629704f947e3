package io.gpufleet.cli.nvidiaconformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.testing.conformance.Cases;
import io.gpufleet.testing.conformance.ConformanceDoc;
import io.gpufleet.testing.conformance.Count;
import io.gpufleet.testing.conformance.UpstreamCase;
import io.gpufleet.testing.conformance.UpstreamSuiteTests;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The NVIDIA conformance suite: every case translated from NVIDIA/k8s-device-plugin, NVIDIA/mig-parted
 * and the GPU Operator's stock config, grouped by area. A known difference is reported as skipped
 * with its reason and counted as not passing; the per-area table of docs/conformance.md must equal
 * the counts. It lives in the cli module, the first that sees both the manifest decoders and the engine.
 */
class NvidiaConformanceTest implements UpstreamSuiteTests {

  static List<UpstreamCase> all() {
    List<UpstreamCase> all = new ArrayList<>();
    all.addAll(PluginConfigCases.cases());
    all.addAll(MigPartedSpecCases.cases());
    all.addAll(MigLayoutCases.cases());
    all.addAll(DevicePluginCases.cases());
    all.addAll(ResourceLabelerCases.cases());
    all.addAll(MigStrategyLabelCases.cases());
    return all;
  }

  @Override
  public List<UpstreamCase> cases() {
    return all();
  }

  @Test
  void everyCaseNamesItsUpstreamFileAndTestAndIsUnique() {
    List<UpstreamCase> all = all();
    assertThat(all).hasSizeGreaterThanOrEqualTo(80);
    assertThat(all).allSatisfy(c -> {
      assertThat(c.source()).isNotBlank();
      assertThat(c.test()).isNotBlank();
    });
    assertThat(Cases.repeated(all)).isEmpty();
  }

  private static final Set<String> PLUGIN_AREAS = Set.of(PluginConfigCases.AREA, DevicePluginCases.ALLOC,
      DevicePluginCases.GFD, DevicePluginCases.MPS, DevicePluginCases.SELECT);

  @Test
  void theDocsTableShowsTheSuitesCounts() throws IOException {
    Map<String, Count> counts = Count.perArea(all());
    String printed = ConformanceDoc.printed("area", counts, false);
    List<String> lines = ConformanceDoc.page();
    // Rows of the NVIDIA area table, | area | upstream | cases | passing |; other tables have rows of that shape too.
    Map<String, Count> documented = new LinkedHashMap<>(ConformanceDoc.table(lines, ConformanceDoc.AREA_UPSTREAM_CASES_PASSING));
    documented.keySet().removeIf(area -> !counts.containsKey(area) && !area.startsWith("NVIDIA total"));
    Map<String, Count> expected = new LinkedHashMap<>(counts);
    expected.put("NVIDIA total", Count.total(counts.values()));
    assertThat(documented).as("docs/conformance.md NVIDIA table; the suite counts:%n%s", printed)
        .containsExactlyEntriesOf(expected);
    Count plugin = sum(counts, PLUGIN_AREAS);
    Count mig = sum(counts, Set.of(MigPartedSpecCases.AREA, MigLayoutCases.AREA));
    assertThat(ConformanceDoc.row(lines, "| NVIDIA device plugin")).endsWith(ConformanceDoc.overviewCells(plugin));
    assertThat(ConformanceDoc.row(lines, "| NVIDIA MIG manager")).endsWith(ConformanceDoc.overviewCells(mig));
    // The README's conformance rows say the same.
    List<String> readme = ConformanceDoc.readme();
    assertThat(ConformanceDoc.row(readme, "| NVIDIA device plugin")).as("README row").endsWith(ConformanceDoc.readmeCells(plugin));
    assertThat(ConformanceDoc.row(readme, "| NVIDIA MIG manager")).as("README row").endsWith(ConformanceDoc.readmeCells(mig));
  }

  private static Count sum(Map<String, Count> counts, Set<String> areas) {
    return Count.total(counts.entrySet().stream().filter(e -> areas.contains(e.getKey())).map(Map.Entry::getValue).toList());
  }
}
