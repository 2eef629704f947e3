package io.gpufleet.autoscaler.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every case translated from Karpenter's Ginkgo suites, grouped by area. A case the twin agrees
 * with must pass; a known difference is reported as skipped with its reason, never dropped, and must
 * still differ.
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
      assertThat(c.file()).matches("(aws:)?pkg/.*_test\\.go");
      assertThat(c.it()).isNotBlank();
    });
    assertThat(all.stream().map(c -> c.file() + "#" + c.it()).distinct().count()).isEqualTo(all.size());
  }

  @Test
  void everyKnownDifferenceStillDiffers() {
    // A difference that got fixed must be unmarked, so the table never undercounts.
    assertThat(ConformanceSuite.all().stream().filter(c -> c.difference().isPresent()).filter(UpstreamCase::passes)
        .map(UpstreamCase::it)).isEmpty();
  }
}
