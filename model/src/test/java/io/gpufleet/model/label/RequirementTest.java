package io.gpufleet.model.label;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Node selector requirement semantics (reference §5.4), one row per case. */
class RequirementTest {

  private static final Labels NODE = Labels.of(
      "nvidia.com/gpu.product", "NVIDIA-A10G", "nvidia.com/gpu.memory", "23028", "zone", "us-east-1a",
      "odd", "not-a-number");

  @ParameterizedTest(name = "{0} {1} {2} -> {3}")
  @CsvSource(delimiter = '|', value = {
      "nvidia.com/gpu.product | In           | NVIDIA-A10G;NVIDIA-L4 | true",
      "nvidia.com/gpu.product | In           | NVIDIA-L4             | false",
      "absent                 | In           | x                     | false",
      "nvidia.com/gpu.product | NotIn        | NVIDIA-L4             | true",
      "nvidia.com/gpu.product | NotIn        | NVIDIA-A10G           | false",
      "absent                 | NotIn        | x                     | true",
      "zone                   | Exists       |                       | true",
      "absent                 | Exists       |                       | false",
      "zone                   | DoesNotExist |                       | false",
      "absent                 | DoesNotExist |                       | true",
      "nvidia.com/gpu.memory  | Gt           | 20000                 | true",
      "nvidia.com/gpu.memory  | Gt           | 23028                 | false",
      "nvidia.com/gpu.memory  | Gt           | 40000                 | false",
      "nvidia.com/gpu.memory  | Lt           | 40000                 | true",
      "nvidia.com/gpu.memory  | Lt           | 23028                 | false",
      "absent                 | Gt           | 1                     | false",
      "absent                 | Lt           | 1                     | false",
      "odd                    | Gt           | 1                     | false",
      "nvidia.com/gpu.memory  | Gt           | abc                   | false",
  })
  void matchesAsKubeSchedulerDoes(String key, String op, String values, boolean expected) {
    List<String> vs = values == null ? List.of() : List.of(values.split(";"));
    Requirement r = new Requirement(key, SelectorOperator.fromWire(op).orElseThrow(), vs);
    assertThat(r.matches(NODE)).isEqualTo(expected);
  }

  @org.junit.jupiter.api.Test
  void labelSelectorsAndTheirExpressions() {
    LabelSelector s = new LabelSelector(Labels.of("app", "vllm"), List.of(Requirement.notIn("tier", "batch")));
    assertThat(s.matches(Labels.of("app", "vllm"))).isTrue();
    assertThat(s.matches(Labels.of("app", "vllm", "tier", "batch"))).isFalse();
    assertThat(s.matches(Labels.of("app", "other"))).isFalse();
    assertThat(LabelSelector.EVERYTHING.matches(Labels.EMPTY)).isTrue();
  }
}
