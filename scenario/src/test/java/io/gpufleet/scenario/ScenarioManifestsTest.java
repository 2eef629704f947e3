package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.manifest.yaml.YamlReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The manifests a scenario names, as lint reads them: cluster first, then each step's apply. */
class ScenarioManifestsTest {

  private static final Path LAB = Path.of("..", "examples", "lab");

  private static List<ScenarioManifests.Applied> applied(String text) {
    YNode doc = new YamlReader().readAll("s.yaml", text).getFirst();
    assertThat(ScenarioManifests.isScenario(doc)).isTrue();
    return ScenarioManifests.applied("s.yaml", text, doc, ScenarioSources.directory(LAB));
  }

  @Test
  void theLabNamesItsClusterAndThreeAppliedFiles() throws Exception {
    String text = Files.readString(LAB.resolve("lab.yaml"));
    assertThat(applied(text)).extracting(a -> a.part().file() + " " + a.by()).containsExactly(
        LAB.resolve("cluster.yaml").normalize() + " spec.cluster",
        LAB.resolve("prepull.yaml").normalize() + " step 3.1",
        LAB.resolve("sliced.yaml").normalize() + " step 3.3",
        LAB.resolve("fifth.yaml").normalize() + " step 3.4");
  }

  @Test
  void objectsWrittenInPlaceKeepTheScenariosPlaceAndAStepWithoutIdIsCountedFromOne() {
    List<ScenarioManifests.Applied> a = applied("""
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: t}
        spec:
          steps:
          - title: first
            actions:
            - wait: 1m
          - title: second
            actions:
            - apply:
              - {apiVersion: v1, kind: Namespace, metadata: {name: a}}
              - {file: fifth.yaml}
        """);
    assertThat(a).extracting(ScenarioManifests.Applied::by).containsExactly("step 2", "step 2");
    assertThat(a.getFirst().part().inPlace()).isTrue();
    assertThat(a.getFirst().part().file()).isEqualTo("s.yaml");
    assertThat(a.getFirst().part().docs().getFirst().location().line()).isEqualTo(12);
    assertThat(a.getLast().part().inPlace()).isFalse();
  }

  @Test
  void aNamedFileThatIsMissingIsAnErrorWhereTheScenarioNamesIt() {
    assertThatThrownBy(() -> applied("""
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: t}
        spec:
          cluster:
          - file: nowhere.yaml
        """)).isInstanceOf(ManifestException.class)
        .hasMessageContaining("s.yaml:6:11").hasMessageContaining("no such file");
  }

  @Test
  void aKubernetesObjectIsNoScenario() {
    YNode doc = new YamlReader().readAll("p.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n").getFirst();
    assertThat(ScenarioManifests.isScenario(doc)).isFalse();
  }
}
