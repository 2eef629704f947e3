package io.gpufleet.manifest.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.ManifestBundle;
import io.gpufleet.manifest.ManifestReader;
import io.gpufleet.model.workload.Workload;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A Deployment's {@code spec.strategy} is read as the API server validates it
 * (pkg/apis/apps/validation ValidateDeploymentStrategy) and {@code minReadySeconds}, which the twin
 * does not model, is said to be so.
 */
class DeploymentStrategyDecoderTest {

  private static String deployment(String extra) {
    return """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: d}
        spec:
          replicas: 2
        %s
          selector: {matchLabels: {app: d}}
          template:
            metadata: {labels: {app: d}}
            spec: {containers: [{name: c, image: i}]}
        """.formatted(extra.indent(2).stripTrailing());
  }

  private static List<String> errors(String text) {
    return ReadErrors.of("m.yaml", text);
  }

  private static Workload.Deployment read(String extra) {
    return (Workload.Deployment) new ManifestReader().read("m.yaml", deployment(extra)).workloads().getFirst();
  }

  @Test
  void theStrategyTypeIsReadAndRollingUpdateIsTheDefault() {
    assertThat(read("minReadySeconds: 0").strategy()).isEqualTo(Workload.Deployment.Strategy.ROLLING_UPDATE);
    assertThat(read("strategy: {type: RollingUpdate}").strategy())
        .isEqualTo(Workload.Deployment.Strategy.ROLLING_UPDATE);
    assertThat(read("strategy: {type: Recreate}").strategy()).isEqualTo(Workload.Deployment.Strategy.RECREATE);
  }

  @Test
  void anUnknownTypeOrRollingUpdateUnderRecreateIsRefusedAtItsLine() {
    assertThat(errors(deployment("strategy: {type: BlueGreen}"))).singleElement().asString()
        .startsWith("m.yaml:6:20: spec.strategy.type: ")
        .contains("Unsupported value: \"BlueGreen\": supported values: \"Recreate\", \"RollingUpdate\"");
    assertThat(errors(deployment("strategy: {type: Recreate, rollingUpdate: {maxSurge: 1}}"))).singleElement()
        .asString().startsWith("m.yaml:6:45: spec.strategy.rollingUpdate: ")
        .contains("may not be specified when strategy `type` is 'Recreate'");
  }

  @Test
  void minReadySecondsIsSaidNotToBeModelled() {
    ManifestBundle b = new ManifestReader().read("m.yaml", deployment("minReadySeconds: 30"));
    assertThat(b.warnings()).extracting(Object::toString).singleElement().asString()
        .startsWith("m.yaml:6:20: warning: spec.minReadySeconds: not modelled by gpufleet");
  }
}
