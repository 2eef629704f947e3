package io.gpufleet.model.dra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code ToleratesTaint} (k8s.io/dynamic-resource-allocation/resourceclaim) as {@link DeviceToleration#tolerates}. */
class DeviceTolerationTest {

  private static final DeviceTaint NO_EXECUTE = new DeviceTaint("example.com/taint", "something",
      DeviceTaint.Effect.NO_EXECUTE);

  private static DeviceToleration toleration(String key, DeviceToleration.Operator op, String value,
      DeviceTaint.Effect effect) {
    return new DeviceToleration(key, op, value, Optional.ofNullable(effect), Optional.empty());
  }

  @Test
  void equalComparesTheValueExistsTakesAnyAndAnEmptyKeyWithExistsTakesEveryTaint() {
    assertThat(toleration("example.com/taint", DeviceToleration.Operator.EQUAL, "something", null)
        .tolerates(NO_EXECUTE)).isTrue();
    assertThat(toleration("example.com/taint", DeviceToleration.Operator.EQUAL, "other", null)
        .tolerates(NO_EXECUTE)).isFalse();
    assertThat(toleration("example.com/taint", DeviceToleration.Operator.EXISTS, "", null)
        .tolerates(NO_EXECUTE)).isTrue();
    assertThat(toleration("", DeviceToleration.Operator.EXISTS, "", null).tolerates(NO_EXECUTE)).isTrue();
    assertThat(toleration("other.com/taint", DeviceToleration.Operator.EXISTS, "", null)
        .tolerates(NO_EXECUTE)).isFalse();
  }

  @Test
  void anEffectWhenGivenMustBeTheTaints() {
    assertThat(toleration("", DeviceToleration.Operator.EXISTS, "", DeviceTaint.Effect.NO_EXECUTE)
        .tolerates(NO_EXECUTE)).isTrue();
    assertThat(toleration("", DeviceToleration.Operator.EXISTS, "", DeviceTaint.Effect.NO_SCHEDULE)
        .tolerates(NO_EXECUTE)).isFalse();
  }

  @Test
  void aRuleTaintsOnlyWhatItsSelectorMatchesAndWithoutOneNothing() {
    DeviceTaintRule driverWide = new DeviceTaintRule("r", Optional.of(new DeviceTaintRule.Selector(
        Optional.of("gpu.nvidia.com"), Optional.empty(), Optional.empty())), NO_EXECUTE);
    assertThat(driverWide.matches("gpu.nvidia.com", "node-a", "gpu-0")).isTrue();
    assertThat(driverWide.matches("other.example.com", "node-a", "gpu-0")).isFalse();
    DeviceTaintRule oneDevice = new DeviceTaintRule("r", Optional.of(new DeviceTaintRule.Selector(Optional.empty(),
        Optional.of("node-a"), Optional.of("gpu-1"))), NO_EXECUTE);
    assertThat(oneDevice.matches("gpu.nvidia.com", "node-a", "gpu-1")).isTrue();
    assertThat(oneDevice.matches("gpu.nvidia.com", "node-a", "gpu-0")).isFalse();
    assertThat(new DeviceTaintRule("r", Optional.empty(), NO_EXECUTE).matches("gpu.nvidia.com", "node-a", "gpu-0"))
        .isFalse();
  }
}
