package io.gpufleet.manifest.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.ManifestReader;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The API server's size limits where the twin reads objects, each refused once at its line with
 * upstream's words: annotations ({@code TotalAnnotationSizeLimitB}, apimachinery
 * pkg/api/validation/objectmeta.go ValidateAnnotationsSize) and devices per ResourceSlice
 * ({@code ResourceSliceMaxDevices}, k8s.io/api resource/v1 types.go; validateResourceSliceSpec).
 */
class ApiServerLimitsTest {

  private final ManifestReader reader = new ManifestReader();

  private List<String> errors(String yaml) {
    return ReadErrors.of("x.yaml", yaml);
  }

  private static String pod(String annotations) {
    return """
        apiVersion: v1
        kind: Pod
        metadata:
          name: p
          annotations:
        %s
        spec:
          containers: [{name: c, image: i}]
        """.formatted(annotations.indent(4).stripTrailing());
  }

  @Test
  void annotationsOf256KiBAreReadOneByteMoreIsRefusedAtTheirLine() {
    // key "a" (1 byte) and a value making the total exactly 262144 bytes: the limit itself is allowed.
    String atLimit = "a: " + "x".repeat(256 * 1024 - 1);
    assertThat(errors(pod(atLimit))).isEmpty();
    String over = "a: " + "x".repeat(256 * 1024);
    assertThat(errors(pod(over))).singleElement().asString()
        .contains("x.yaml:6:", "metadata.annotations", "Too long: may not be more than 262144 bytes");
  }

  @Test
  void annotationsAreCountedTogetherAndInUtf8Bytes() {
    // Two values of 128 KiB characters, each 'é' two bytes in UTF-8: 512 KiB in all.
    String two = "a: " + "é".repeat(128 * 1024) + "\nb: " + "é".repeat(10);
    assertThat(errors(pod(two))).singleElement().asString().contains("Too long: may not be more than 262144 bytes");
  }

  @Test
  void aWorkloadTemplatesAnnotationsAreLimitedToo() {
    String deployment = """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: d}
        spec:
          selector: {matchLabels: {app: d}}
          template:
            metadata:
              labels: {app: d}
              annotations: {a: "%s"}
            spec:
              containers: [{name: c, image: i}]
        """.formatted("x".repeat(300_000));
    assertThat(errors(deployment)).singleElement().asString()
        .contains("x.yaml:9:", "spec.template.annotations", "Too long: may not be more than 262144 bytes");
  }

  @Test
  void aClaimOf32RequestsIsReadOf33IsRefusedOnce() {
    java.util.function.IntFunction<String> claim = n -> """
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: c}
        spec:
          devices:
            requests:
        """ + IntStream.range(0, n).mapToObj(i -> "- {name: r" + i + ", exactly: {deviceClassName: gpu.nvidia.com}}\n")
        .collect(Collectors.joining()).indent(4);
    assertThat(reader.read("x.yaml", claim.apply(32)).dra().claims().getFirst().spec().requests()).hasSize(32);
    assertThat(errors(claim.apply(33))).singleElement().asString().contains("Too many: 33: must have at most 32 items");
  }

  private static String slice(int devices) {
    return """
        apiVersion: resource.k8s.io/v1
        kind: ResourceSlice
        metadata: {name: s}
        spec:
          driver: gpu.nvidia.com
          pool: {name: n, generation: 1, resourceSliceCount: 1}
          nodeName: n
          devices:
        """ + IntStream.range(0, devices).mapToObj(i -> "  - name: gpu-" + i + "\n")
        .collect(Collectors.joining()).indent(2);
  }

  @Test
  void aSliceOf128DevicesIsReadOf129IsRefusedOnce() {
    assertThat(reader.read("x.yaml", slice(128)).dra().slices().getFirst().devices()).hasSize(128);
    assertThat(errors(slice(129))).singleElement().asString()
        .contains("x.yaml:9:", "Too many: 129: must have at most 128 items");
    // The 5,000 devices: the same single line, no per-device errors after it.
    assertThat(errors(slice(5000))).singleElement().asString().contains("Too many: 5000: must have at most 128 items");
  }
}
