package io.gpufleet.manifest.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.ManifestReader;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.model.dra.DeviceConfig;
import io.gpufleet.model.dra.DeviceRequest;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** {@code firstAvailable} (DRAPrioritizedList): ordered subrequests, checked as the API server checks them. */
class FirstAvailableDecoderTest {

  private final ManifestReader reader = new ManifestReader();

  /** A claim with one request named gpu whose body is {@code request} (indented under the request). */
  private static String claim(String request, String config) {
    return """
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: c}
        spec:
          devices:
            requests:
            - name: gpu
        """ + request.indent(6) + config.indent(4);
  }

  private static String sub(String name, String className) {
    return "- {name: " + name + ", deviceClassName: " + className + "}\n";
  }

  private List<String> errors(String yaml) {
    try {
      reader.read("c.yaml", yaml);
    } catch (ManifestException e) {
      return e.problems().stream().map(ManifestProblem::toString).toList();
    }
    throw new AssertionError("expected a ManifestException");
  }

  @Test
  void readsSubrequestsInOrderWithTheirSelectorsAndCounts() {
    DeviceRequest r = reader.read("c.yaml", claim("""
        firstAvailable:
        - name: h100
          deviceClassName: gpu.nvidia.com
          selectors:
          - cel: {expression: 'device.attributes["gpu.nvidia.com"].productName.startsWith("NVIDIA H100")'}
        - {name: two-a10g, deviceClassName: gpu.nvidia.com, count: 2}
        - {name: all-mig, deviceClassName: mig.nvidia.com, allocationMode: All}
        """, "")).dra().claims().getFirst().spec().requests().getFirst();
    assertThat(r.name()).isEqualTo("gpu");
    assertThat(r.firstAvailable()).extracting(DeviceRequest::name).containsExactly("h100", "two-a10g", "all-mig");
    assertThat(r.firstAvailable().getFirst().selectors()).singleElement().asString().contains("NVIDIA H100");
    assertThat(r.firstAvailable().get(1).count()).isEqualTo(2);
    assertThat(r.firstAvailable().get(2).allocationMode()).isEqualTo(DeviceRequest.AllocationMode.ALL);
    assertThat(r.alternatives()).extracting(DeviceRequest.Alternative::resultName)
        .containsExactly("gpu/h100", "gpu/two-a10g", "gpu/all-mig");
  }

  @Test
  void exactlyOneOfExactlyAndFirstAvailable() {
    assertThat(errors(claim("exactly: {deviceClassName: gpu.nvidia.com}\nfirstAvailable:\n"
        + sub("a", "gpu.nvidia.com"), "")))
        .anyMatch(e -> e.contains("exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set"));
    assertThat(errors(claim("firstAvailable: []\n", "")))
        .anyMatch(e -> e.contains("Required value: exactly one of `exactly` or `firstAvailable` is required"));
  }

  @Test
  void atMostEightSubrequestsWithUniqueDnsLabelNames() {
    String nine = IntStream.range(0, 9).mapToObj(i -> sub("s" + i, "gpu.nvidia.com")).collect(Collectors.joining());
    assertThat(errors(claim("firstAvailable:\n" + nine, "")))
        .anyMatch(e -> e.contains("firstAvailable") && e.contains("Too many: 9: must have at most 8 items"));
    String eight = IntStream.range(0, 8).mapToObj(i -> sub("s" + i, "gpu.nvidia.com")).collect(Collectors.joining());
    assertThat(reader.read("c.yaml", claim("firstAvailable:\n" + eight, "")).dra().claims().getFirst().spec()
        .requests().getFirst().firstAvailable()).hasSize(8);
    assertThat(errors(claim("firstAvailable:\n" + sub("a", "gpu.nvidia.com") + sub("a", "mig.nvidia.com"), "")))
        .anyMatch(e -> e.contains("Duplicate value: \"a\""));
    assertThat(errors(claim("firstAvailable:\n" + sub("Not_A_Label", "gpu.nvidia.com"), "")))
        .anyMatch(e -> e.contains("Invalid value: \"Not_A_Label\""));
  }

  @Test
  void subrequestFieldsAreCheckedLikeExactly() {
    assertThat(errors(claim("""
        firstAvailable:
        - {name: a, deviceClassName: gpu.nvidia.com, allocationMode: All, count: 2}
        - {name: b, deviceClassName: Bad_Class}
        - {name: c, deviceClassName: gpu.nvidia.com, count: 0}
        """, "")))
        .anyMatch(e -> e.contains("must not be specified when allocationMode is 'All'"))
        .anyMatch(e -> e.contains("Invalid value: \"Bad_Class\""))
        .anyMatch(e -> e.contains("Invalid value: 0: must be greater than zero"));
  }

  @Test
  void configMayNameTheRequestOrOneOfItsSubrequests() {
    String request = "firstAvailable:\n" + sub("h100", "gpu.nvidia.com") + sub("a10g", "gpu.nvidia.com");
    String config = """
        config:
        - requests: [%s]
          opaque:
            driver: gpu.nvidia.com
            parameters: {apiVersion: resource.nvidia.com/v1beta1, kind: GpuConfig}
        """;
    assertThat(reader.read("c.yaml", claim(request, config.formatted("gpu, gpu/a10g"))).dra().claims().getFirst()
        .spec().config().getFirst().requests()).containsExactly("gpu", "gpu/a10g");
    // A config for the request applies to whichever subrequest is allocated; one for a subrequest to it alone.
    DeviceConfig forRequest = reader.read("c.yaml", claim(request, config.formatted("gpu"))).dra().claims()
        .getFirst().spec().config().getFirst();
    assertThat(forRequest.appliesTo("gpu/h100")).isTrue();
    DeviceConfig forSub = reader.read("c.yaml", claim(request, config.formatted("gpu/a10g"))).dra().claims()
        .getFirst().spec().config().getFirst();
    assertThat(forSub.appliesTo("gpu/a10g")).isTrue();
    assertThat(forSub.appliesTo("gpu/h100")).isFalse();
    assertThat(errors(claim(request, config.formatted("gpu/b200"))))
        .anyMatch(e -> e.contains("Invalid value: \"gpu/b200\": must be the name of a request in the claim"));
  }

  @Test
  void aSelectorOverTenKibibytesIsRefusedAtItsLineAsTheApiServerRefusesIt() {
    // pkg/apis/resource/validation validateCELSelector: len(expression) > CELSelectorExpressionMaxLength
    // (10 * 1024) is field.TooLong, and the expression is not compiled.
    String longest = "true" + " ".repeat(10 * 1024 - 4);
    reader.read("c.yaml", claim("exactly:\n  deviceClassName: gpu.nvidia.com\n  selectors:\n  - cel: {expression: '"
        + longest + "'}\n", ""));
    assertThat(errors(claim("exactly:\n  deviceClassName: gpu.nvidia.com\n  selectors:\n  - cel: {expression: '"
        + longest + " '}\n", ""))).singleElement().asString()
        .contains("c.yaml:", "Too long: may not be more than 10240 bytes");
  }
}
