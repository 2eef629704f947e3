package io.gpufleet.manifest.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.ManifestBundle;
import io.gpufleet.manifest.ManifestReader;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.workload.PodDisruptionBudget;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A PDB's selector is kept as written: absent or null stays absent and selects no pod, {@code {}}
 * stays an empty selector and selects every pod of the namespace, as policy/v1 says
 * (k8s.io/api/policy/v1/types.go: "A null selector will match no pods, while an empty ({}) selector
 * will select all pods within the namespace.").
 */
class PdbSelectorDecoderTest {

  private static PodDisruptionBudget pdb(String selectorLine) {
    String text = """
        apiVersion: policy/v1
        kind: PodDisruptionBudget
        metadata: {name: b, namespace: ml}
        spec:
          minAvailable: 1
        %s""".formatted(selectorLine.isEmpty() ? "" : "  " + selectorLine + "\n");
    return new ManifestReader().read("m.yaml", text).pdbs().getFirst();
  }

  @Test
  void anAbsentOrNullSelectorIsAbsentAndSelectsNothing() {
    for (String line : new String[] {"", "selector: null", "selector: ~"}) {
      PodDisruptionBudget b = pdb(line);
      assertThat(b.selector()).as(line).isEmpty();
      assertThat(b.selects("ml", Labels.of("app", "a"))).as(line).isFalse();
      assertThat(b.selects("ml", Labels.EMPTY)).as(line).isFalse();
    }
  }

  @Test
  void anEmptySelectorIsKeptAndSelectsEveryPodOfTheNamespaceOnly() {
    PodDisruptionBudget b = pdb("selector: {}");
    assertThat(b.selector()).contains(LabelSelector.EVERYTHING);
    assertThat(b.selects("ml", Labels.of("app", "a"))).isTrue();
    assertThat(b.selects("ml", Labels.EMPTY)).as("an unlabelled pod too").isTrue();
    assertThat(b.selects("default", Labels.of("app", "a"))).isFalse();
  }

  @Test
  void aGivenSelectorSelectsTheMatchingPods() {
    PodDisruptionBudget b = pdb("selector: {matchLabels: {app: a}}");
    assertThat(b.selector()).isEqualTo(Optional.of(LabelSelector.matching(Labels.of("app", "a"))));
    assertThat(b.selects("ml", Labels.of("app", "a"))).isTrue();
    assertThat(b.selects("ml", Labels.of("app", "b"))).isFalse();
  }

  private static final String WITH_POLICY = """
      apiVersion: policy/v1
      kind: PodDisruptionBudget
      metadata: {name: b}
      spec:
        minAvailable: 1
        selector: {matchLabels: {app: a}}
        unhealthyPodEvictionPolicy: %s
      """;

  /** The default, written out, is read as it is meant: nothing to say. */
  @Test
  void ifHealthyBudgetIsReadQuietly() {
    ManifestBundle b = new ManifestReader().read("m.yaml", WITH_POLICY.formatted("IfHealthyBudget"));
    assertThat(b.warnings()).isEmpty();
  }

  /** AlwaysAllow changes which pods may go; the twin does not model it, so it says so at the field. */
  @Test
  void alwaysAllowIsWarnedOfAtItsLine() {
    ManifestBundle b = new ManifestReader().read("m.yaml", WITH_POLICY.formatted("AlwaysAllow"));
    assertThat(b.warnings()).extracting(Object::toString).singleElement().asString()
        .startsWith("m.yaml:7:31: warning: spec.unhealthyPodEvictionPolicy: ")
        .contains("not modelled by gpufleet: an unready pod is held to this budget");
  }

  /** Any other value is refused with the API server's words (field.NotSupported). */
  @Test
  void anotherValueIsRefusedAsTheApiServerDoes() {
    assertThat(ReadErrors.of("m.yaml", WITH_POLICY.formatted("Always"))).singleElement().asString().startsWith("m.yaml:7:31: spec.unhealthyPodEvictionPolicy: ")
        .contains("Unsupported value: \"Always\": supported values: \"AlwaysAllow\", \"IfHealthyBudget\"");
  }
}
