package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings.DraRequests;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code spec.autoscaler.draRequests} and Karpenter's {@code ignoreDRARequests}: Karpenter's behaviour by default,
 * its allocator with its flag off, gpufleet's sizing only when spelt out, never two at once.
 */
class DraRequestsSettingTest {

  private static ScenarioFile read(String autoscaler) {
    return ScenarioReader.read("s.yaml", """
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: t}
        spec:
          autoscaler: %s
        """.formatted(autoscaler), ScenarioSources.directory(Path.of("..", "examples", "lab")));
  }

  private static List<String> errors(String autoscaler) {
    try {
      read(autoscaler);
    } catch (ManifestException e) {
      return e.problems().stream().map(ManifestProblem::toString).toList();
    }
    throw new AssertionError("expected errors");
  }

  @Test
  void karpentersDefaultUnlessTheExtensionIsAskedFor() {
    assertThat(read("{sizing: physical}").scenario().autoscaler().draRequests()).isEqualTo(DraRequests.IGNORE);
    assertThat(read("{draRequests: ignore}").scenario().autoscaler().draRequests()).isEqualTo(DraRequests.IGNORE);
    assertThat(read("{draRequests: allocate}").scenario().autoscaler().draRequests())
        .isEqualTo(DraRequests.ALLOCATE);
  }

  @Test
  void karpentersFlagPicksItsDefaultOrItsAllocator() {
    assertThat(read("{ignoreDRARequests: true}").scenario().autoscaler().draRequests())
        .isEqualTo(DraRequests.IGNORE);
    assertThat(read("{ignoreDRARequests: false}").scenario().autoscaler().draRequests())
        .isEqualTo(DraRequests.KARPENTER);
  }

  @Test
  void aMisspeltValueOrBothSettingsAreRefusedAtTheirLine() {
    assertThat(errors("{draRequests: alocate}")).containsExactly(
        "s.yaml:5:29: spec.autoscaler.draRequests: expected ignore (as Karpenter) or allocate (gpufleet), found "
            + "\"alocate\"");
    assertThat(errors("{ignoreDRARequests: false, draRequests: allocate}")).containsExactly(
        "s.yaml:5:35: spec.autoscaler.ignoreDRARequests: set either ignoreDRARequests (Karpenter's "
            + "--ignore-dra-requests) or draRequests: allocate (gpufleet's DRA-aware sizing, an extension), not both");
    assertThat(errors("{ignoreDRARequests: no}")).singleElement().satisfies(e ->
        assertThat(e).startsWith("s.yaml:5:35: spec.autoscaler.ignoreDRARequests: expected a boolean"));
  }
}
