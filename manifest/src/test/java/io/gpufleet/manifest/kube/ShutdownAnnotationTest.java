package io.gpufleet.manifest.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code gpufleet.io/shutdown-duration} must be a Go duration, on a pod or a pod template. */
class ShutdownAnnotationTest {

  private static List<String> errors(String text) {
    return ReadErrors.of("m.yaml", text);
  }

  private static String deployment(String value) {
    return """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: d}
        spec:
          selector: {matchLabels: {app: d}}
          template:
            metadata:
              labels: {app: d}
              annotations: {gpufleet.io/shutdown-duration: "%s"}
            spec: {containers: [{name: c, image: i}]}
        """.formatted(value);
  }

  @Test
  void aDurationIsRead() {
    assertThat(errors(deployment("20s"))).isEmpty();
    assertThat(errors(deployment("1m30s"))).isEmpty();
  }

  @Test
  void anythingElseIsRefusedWhereItIsWritten() {
    assertThat(errors(deployment("soon"))).singleElement().asString()
        .startsWith("m.yaml:9:52: spec.template.metadata.annotations.gpufleet.io/shutdown-duration: ")
        .contains("expected a duration such as 20s, found \"soon\"");
    assertThat(errors("""
        apiVersion: v1
        kind: Pod
        metadata: {name: p, annotations: {gpufleet.io/shutdown-duration: "-5s"}}
        spec: {containers: [{name: c, image: i}]}
        """)).singleElement().asString().startsWith("m.yaml:3:")
        .contains("found \"-5s\"");
  }
}
