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
        "spec.containers[0].resources.requests[nvidia.com/gpu]: Invalid value: \"1\": "
            + "must be equal to nvidia.com/gpu limit of 2");
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
        "spec.containers[0].resources.requests[cpu]: Invalid value: \"2\": must be less than or equal to cpu limit of 1");
  }

  @Test
  void negativeAndUnknownNativeResourcesAreRejected() {
    assertThat(errors(ResourceList.of("memory", "-1Gi"), ResourceList.EMPTY)).containsExactly(
        "spec.containers[0].resources.requests[memory]: Invalid value: \"-1Gi\": must be greater than or equal to 0");
    assertThat(errors(ResourceList.of("gpu", "1"), ResourceList.EMPTY)).containsExactly(
        "spec.containers[0].resources.requests[gpu]: Invalid value: \"gpu\": must be a standard resource for containers");
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
