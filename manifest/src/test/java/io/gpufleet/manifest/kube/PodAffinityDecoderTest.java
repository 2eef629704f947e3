package io.gpufleet.manifest.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.ManifestReader;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.model.affinity.PodAffinityTerm;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.pod.PodSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** podAffinity and podAntiAffinity as the API server reads and checks them. */
class PodAffinityDecoderTest {

  private final ManifestReader reader = new ManifestReader();

  private static final String POD = """
      apiVersion: v1
      kind: Pod
      metadata: {name: p, labels: {app: web}}
      spec:
        containers: [{name: c}]
        affinity:
      """;

  private List<String> errors(String affinity) {
    try {
      reader.read("p.yaml", POD + affinity);
    } catch (ManifestException e) {
      return e.problems().stream().map(ManifestProblem::toString).toList();
    }
    throw new AssertionError("expected a ManifestException");
  }

  @Test
  void readsRequiredAndPreferredTermsOfBoth() {
    PodSpec spec = reader.read("p.yaml", POD + """
            podAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
              - labelSelector: {matchLabels: {app: cache}}
                topologyKey: topology.kubernetes.io/zone
                namespaces: [cache]
            podAntiAffinity:
              preferredDuringSchedulingIgnoredDuringExecution:
              - weight: 50
                podAffinityTerm:
                  labelSelector: {matchLabels: {app: web}}
                  topologyKey: kubernetes.io/hostname
                  namespaceSelector: {}
        """).pods().getFirst().spec();
    PodAffinityTerm required = spec.podAffinity().required().getFirst();
    assertThat(required.labelSelector().orElseThrow().matchLabels()).isEqualTo(Labels.of("app", "cache"));
    assertThat(required.namespaces()).containsExactly("cache");
    assertThat(required.namespaceSelector()).isEmpty();
    assertThat(spec.podAntiAffinity().preferred().getFirst().weight()).isEqualTo(50);
    assertThat(spec.podAntiAffinity().preferred().getFirst().term().namespaceSelector()).hasValueSatisfying(
        s -> assertThat(s.isEmpty()).as("an empty namespaceSelector selects every namespace").isTrue());
  }

  @Test
  void theApiServersChecksWithItsWordsAndFieldPaths() {
    assertThat(errors("""
            podAntiAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
              - labelSelector: {matchLabels: {app: web}}
                topologyKey: ""
                namespaces: [Bad_NS]
              preferredDuringSchedulingIgnoredDuringExecution:
              - weight: 101
                podAffinityTerm: {topologyKey: zone}
        """)).containsExactly(
        "p.yaml:9:9: spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespace: Invalid "
            + "value: \"Bad_NS\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
            + "and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
            + "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
        "p.yaml:10:22: spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: "
            + "Required value: can not be empty",
        "p.yaml:10:22: spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: "
            + "Invalid value: \"\": name part must be non-empty",
        "p.yaml:10:22: spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: "
            + "Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start "
            + "and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
            + "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        "p.yaml:13:17: spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid "
            + "value: \"101\": must be in the range 1-100");
  }
}
