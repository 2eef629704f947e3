package io.gpufleet.lint;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.lint.rules.Rules;
import io.gpufleet.manifest.ManifestSource;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A PDB whose selector is {@code {}} covers every pod of its namespace (policy/v1), so a service
 * under it has a PDB; one without a selector covers none (k8s.io/api/policy/v1/types.go).
 */
class EmptyPdbSelectorTest {

  private static List<Finding> findings(String selector) {
    String text = """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: vllm, namespace: ml}
        spec:
          replicas: 2
          selector: {matchLabels: {app: vllm}}
          template:
            metadata: {labels: {app: vllm}}
            spec:
              containers:
              - name: vllm
                image: vllm/vllm-openai:v0.6.3
                resources: {limits: {nvidia.com/gpu: 1}}
        ---
        apiVersion: policy/v1
        kind: PodDisruptionBudget
        metadata: {name: all, namespace: ml}
        spec:
          maxUnavailable: 1
        %s""".formatted(selector.isEmpty() ? "" : "  selector: " + selector + "\n");
    LintInput in = LintInput.read(List.of(new ManifestSource("in.yaml", text)));
    assertThat(in.rejected()).as("the test's own manifests are valid").isEmpty();
    return Linter.run(in, List.of(Rules.byId("service-without-pdb").orElseThrow())).findings();
  }

  @Test
  void anEmptySelectorCoversTheService() {
    assertThat(findings("{}")).isEmpty();
    assertThat(findings("{matchLabels: {app: vllm}}")).isEmpty();
  }

  @Test
  void aNullSelectorCoversNothing() {
    assertThat(findings("")).singleElement().satisfies(f -> assertThat(f.message())
        .startsWith("no PodDisruptionBudget in namespace ml selects its pods"));
    assertThat(findings("null")).hasSize(1);
  }
}
