package io.gpufleet.model.taint;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code ToleratesTaint} (reference §5.3): key, operator, value and effect, each way round. */
class TolerationTest {

  @ParameterizedTest(name = "[{0} {1} {2} {3}] vs {4}={5}:{6} -> {7}")
  @CsvSource(delimiter = '|', nullValues = "-", value = {
      // toleration key | operator | value | effect           || taint key | value | effect | tolerated
      "nvidia.com/gpu   | Equal    | true  | NoSchedule       | nvidia.com/gpu | true  | NoSchedule       | true",
      "nvidia.com/gpu   | Equal    | false | NoSchedule       | nvidia.com/gpu | true  | NoSchedule       | false",
      "nvidia.com/gpu   | Exists   | -     | NoSchedule       | nvidia.com/gpu | true  | NoSchedule       | true",
      "nvidia.com/gpu   | Exists   | -     | -                | nvidia.com/gpu | true  | NoExecute        | true",
      "nvidia.com/gpu   | Exists   | -     | NoExecute        | nvidia.com/gpu | true  | NoSchedule       | false",
      "nvidia.com/gpu   | Exists   | -     | PreferNoSchedule | nvidia.com/gpu | true  | PreferNoSchedule | true",
      "other            | Exists   | -     | -                | nvidia.com/gpu | true  | NoSchedule       | false",
      "-                | Exists   | -     | -                | nvidia.com/gpu | true  | NoSchedule       | true",
      "-                | Exists   | -     | -                | anything       | -     | NoExecute        | true",
      "-                | Exists   | -     | NoSchedule       | anything       | x     | NoExecute        | false",
      "dedicated        | Equal    | -     | NoSchedule       | dedicated      | -     | NoSchedule       | true",
      "dedicated        | -        | gpu   | NoSchedule       | dedicated      | gpu   | NoSchedule       | true",
  })
  void toleratesAsTheCoreApiDoes(String key, String op, String value, String effect, String taintKey,
      String taintValue, String taintEffect, boolean expected) {
    Toleration.Operator operator = op == null ? Toleration.Operator.EQUAL
        : Toleration.Operator.fromWire(op).orElseThrow();
    Toleration t = new Toleration(key, operator, value, Optional.ofNullable(effect).flatMap(TaintEffect::fromWire),
        OptionalLong.empty());
    Taint taint = Taint.of(taintKey, taintValue, TaintEffect.fromWire(taintEffect).orElseThrow());
    assertThat(t.tolerates(taint)).isEqualTo(expected);
  }

  @org.junit.jupiter.api.Test
  void firstUntoleratedBlockingTaintIgnoresPreferNoSchedule() {
    List<Taint> taints = List.of(
        Taint.of("soft", "", TaintEffect.PREFER_NO_SCHEDULE),
        Taint.of("nvidia.com/gpu", "true", TaintEffect.NO_SCHEDULE),
        Taint.of("spot", "true", TaintEffect.NO_EXECUTE));
    assertThat(Tolerations.firstUntoleratedBlocking(taints, List.of())).contains(taints.get(1));
    assertThat(Tolerations.firstUntoleratedBlocking(taints,
        List.of(Toleration.exists("nvidia.com/gpu", TaintEffect.NO_SCHEDULE)))).contains(taints.get(2));
    assertThat(Tolerations.firstUntoleratedBlocking(taints, List.of(Toleration.everything()))).isEmpty();
  }

  @org.junit.jupiter.api.Test
  void printsLikeKubectl() {
    assertThat(Taint.of("nvidia.com/gpu", "true", TaintEffect.NO_SCHEDULE)).hasToString("nvidia.com/gpu=true:NoSchedule");
    assertThat(Taint.of("spot", "", TaintEffect.NO_EXECUTE)).hasToString("spot:NoExecute");
  }
}
