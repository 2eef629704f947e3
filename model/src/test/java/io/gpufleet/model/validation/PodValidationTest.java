package io.gpufleet.model.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The API server's rules for extended resources such as nvidia.com/gpu (reference §5.1). */
class PodValidationTest {

  private static List<String> errors(ResourceList requests, ResourceList limits) {
    PodSpec spec = PodSpec.of(Container.of("c", "img", requests, limits));
    return PodValidation.validate(spec, "spec").stream().map(FieldError::toString).toList();
  }

  @Test
  void aGpuLimitAloneIsValid() {
    assertThat(errors(ResourceList.EMPTY, ResourceList.of("nvidia.com/gpu", "1"))).isEmpty();
  }

  @Test
  void aGpuRequestEqualToItsLimitIsValid() {
    assertThat(errors(ResourceList.of("nvidia.com/gpu", "2"), ResourceList.of("nvidia.com/gpu", "2"))).isEmpty();
  }

  @Test
  void aGpuRequestWithoutALimitIsRejected() {
    assertThat(errors(ResourceList.of("nvidia.com/gpu", "1"), ResourceList.EMPTY)).containsExactly(
        "spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources");
  }

  @Test
  void aGpuRequestDifferentFromItsLimitIsRejected() {
    assertThat(errors(ResourceList.of("nvidia.com/gpu", "1"), ResourceList.of("nvidia.com/gpu", "2"))).containsExactly(
        // Upstream reports the mismatch at the requests map, not at the key.
        "spec.containers[0].resources.requests: Invalid value: \"1\": must be equal to nvidia.com/gpu limit of 2");
  }

  @Test
  void fractionalGpusAreRejected() {
    assertThat(errors(ResourceList.EMPTY, ResourceList.of("nvidia.com/gpu", "500m"))).containsExactly(
        "spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: \"500m\": must be an integer");
  }

  @Test
  void cpuMayBeOvercommittedButNotAboveItsLimit() {
    assertThat(errors(ResourceList.of("cpu", "500m"), ResourceList.of("cpu", "1"))).isEmpty();
    assertThat(errors(ResourceList.of("cpu", "2"), ResourceList.of("cpu", "1"))).containsExactly(
        "spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1");
  }

  @Test
  void negativeAndUnknownNativeResourcesAreRejected() {
    assertThat(errors(ResourceList.of("memory", "-1Gi"), ResourceList.EMPTY)).containsExactly(
        "spec.containers[0].resources.requests[memory]: Invalid value: \"-1Gi\": must be greater than or equal to 0");
    assertThat(errors(ResourceList.of("gpu", "1"), ResourceList.EMPTY)).containsExactly(
        "spec.containers[0].resources.requests[gpu]: Invalid value: \"gpu\": must be a standard resource type or fully "
            + "qualified",
        "spec.containers[0].resources.requests[gpu]: Invalid value: \"gpu\": must be a standard resource for containers");
  }

  @Test
  void kubernetesIoPrefixedResourcesAreNativeAndAccepted() {
    // IsNativeResource: a name containing kubernetes.io/ is native, may be overcommitted and need not be whole.
    assertThat(errors(ResourceList.of("kubernetes.io/network-bandwidth", "500m"),
        ResourceList.of("kubernetes.io/network-bandwidth", "1"))).isEmpty();
    // An invalid qualified name is also not an extended resource name: upstream says both.
    assertThat(errors(ResourceList.EMPTY, ResourceList.of("example.com/foo_", "1"))).satisfiesExactly(
        e -> assertThat(e).startsWith("spec.containers[0].resources.limits[example.com/foo_]: Invalid value: "
            + "\"example.com/foo_\": name part must consist of"),
        e -> assertThat(e).isEqualTo("spec.containers[0].resources.limits[example.com/foo_]: Invalid value: "
            + "\"example.com/foo_\": doesn't follow extended resource name standard"));
  }

  @Test
  void hugePagesAreWholePagesAndNeedCpuOrMemory() {
    assertThat(errors(ResourceList.of("hugepages-2Mi", "4Mi"), ResourceList.of("hugepages-2Mi", "4Mi"))).containsExactly(
        "spec.containers[0].resources: Forbidden: HugePages require cpu or memory");
    assertThat(errors(ResourceList.of("hugepages-2Mi", "3Mi"), ResourceList.of("hugepages-2Mi", "3Mi", "memory", "1Gi")))
        .containsExactly(
            "spec.containers[0].resources.limits[hugepages-2Mi]: Invalid value: \"3Mi\": 3Mi is not positive integer "
                + "multiple of hugepages-2Mi",
            "spec.containers[0].resources.requests[hugepages-2Mi]: Invalid value: \"3Mi\": 3Mi is not positive integer "
                + "multiple of hugepages-2Mi");
    assertThat(errors(ResourceList.of("hugepages-1Gi", "2Gi"), ResourceList.of("hugepages-1Gi", "1Gi", "cpu", "1")))
        .containsExactly("spec.containers[0].resources.requests: Invalid value: \"2Gi\": must be equal to hugepages-1Gi "
            + "limit of 1Gi");
    assertThat(errors(ResourceList.of("hugepages-2Mi", "2Mi"), ResourceList.of("cpu", "1"))).containsExactly(
        "spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources");
  }

  @Test
  void tolerationRules() {
    PodSpec spec = PodSpec.of(Container.of("c", "img", ResourceList.EMPTY, ResourceList.EMPTY)).withTolerations(List.of(
        new Toleration("", Toleration.Operator.EQUAL, "x", Optional.empty(), OptionalLong.empty()),
        new Toleration("k", Toleration.Operator.EXISTS, "v", Optional.empty(), OptionalLong.empty()),
        new Toleration("k", Toleration.Operator.EXISTS, "", Optional.of(TaintEffect.NO_SCHEDULE), OptionalLong.of(30))));
    assertThat(PodValidation.validate(spec, "spec")).extracting(FieldError::path).containsExactly(
        "spec.tolerations[0].operator", "spec.tolerations[1].operator", "spec.tolerations[2].effect");
  }
}
