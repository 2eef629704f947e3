package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gpufleet.manifest.yaml.ManifestException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** A simulation refuses a NodePool it cannot read, rather than running without an autoscaler. */
class OldKarpenterApiScenarioTest {

  static String scenario(String apiVersion, String kind) {
    return """
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: old-api}
        spec:
          cluster:
          - apiVersion: %s
            kind: %s
            metadata: {name: gpu}
            spec: {}
          - apiVersion: v1
            kind: Pod
            metadata: {name: p}
            spec:
              containers:
              - {name: c, image: busybox, resources: {requests: {cpu: 100m}}}
          steps:
          - title: wait
            actions:
            - wait: 1m
        """.formatted(apiVersion, kind);
  }

  @Test
  void anOldNodePoolStopsTheSimulationWithTheHonestMessage() {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> ScenarioReader.read("s.yaml",
        scenario("karpenter.sh/v1beta1", "NodePool"), ScenarioSources.directory(Path.of("."))));
    assertThat(e.problems()).singleElement().satisfies(p -> {
      assertThat(p.location().line()).isEqualTo(6);
      assertThat(p.message()).startsWith("a simulation does not run without its NodePools")
          .contains("served by Karpenter v0.32 to v1.0", "gpufleet reads karpenter.sh/v1 NodePool only");
    });
  }

  @Test
  void anOldNodeClassIsOnlyAWarning() {
    ScenarioFile f = ScenarioReader.read("s.yaml", scenario("karpenter.k8s.aws/v1beta1", "EC2NodeClass"),
        ScenarioSources.directory(Path.of(".")));
    assertThat(f.warnings()).anySatisfy(w -> assertThat(w.message())
        .startsWith("karpenter.k8s.aws/v1beta1 EC2NodeClass \"gpu\" is served by Karpenter v0.32 to v1.0"));
  }
}
