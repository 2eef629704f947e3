package io.gpufleet.autoscaler.conformance;

import static io.gpufleet.autoscaler.conformance.K.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.disruption.DisruptionCommand;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.pod.Pod;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What the Balanced policy changes in a poll, against WhenEmptyOrUnderutilized on the same cluster:
 * an m5.xlarge with one 500m pod that could be replaced by an m5.large (saving $0.096/h of the pool's
 * $0.288/h), beside a full m5.large whose pod may not be disrupted. The pod's eviction cost
 * ({@code K:pkg/utils/disruption/disruption.go} EvictionCost: priority/2^25, deletion cost/2^27,
 * clamped to [-10, 10]) decides whether the replace passes {@code 1/k = 0.5}.
 */
class BalancedScoringTest {

  static NodePool pool(ConsolidationPolicy policy) {
    return consolidating("general", policy, Duration.ZERO, 100, "on-demand");
  }

  static Optional<DisruptionCommand> poll(ConsolidationPolicy policy, Pod movable) {
    NodePool p = pool(policy);
    StateNode big = node(p, "m5.xlarge", 1, owned(movable));
    StateNode full = node(p, "m5.large", 2, doNotDisrupt(owned(pod("full", "cpu", "1800m")), "true"));
    return pollAt(T0.plus(Duration.ofHours(1)), p, List.of(big, full), List.of());
  }

  static Pod costly(Pod p) {
    // EvictionCost 1 + 9 * 2^27 / 2^27 = 10, the clamp's top.
    return p.withMeta(p.meta().withAnnotations(p.meta().annotations().with(
        "controller.kubernetes.io/pod-deletion-cost", String.valueOf(9L << 27))));
  }

  @Test
  void aReplaceThatSavesAThirdForHalfTheDisruptionPassesAndSaysItsScore() {
    // savings 0.096/0.288 = 1/3; disruption (1 + 1)/((1 + 1) + (1 + 1)) = 1/2; score 0.67.
    DisruptionCommand cmd = poll(ConsolidationPolicy.BALANCED, pod("p", "cpu", "500m")).orElseThrow();
    assertThat(cmd.replacements()).singleElement()
        .satisfies(r -> assertThat(r.instanceType().name()).isEqualTo("m5.large"));
    assertThat(cmd.approvals()).containsExactly(Map.entry(cmd.candidates().getFirst(),
        "score 0.67 >= threshold 0.50 (k: 2, savings 33.3%, disruption 50.0%)"));
  }

  @Test
  void theSameReplaceOfACostlyPodIsRejectedWhereWhenEmptyOrUnderutilizedTakesIt() {
    // disruption (1 + 10)/((1 + 10) + (1 + 1)) = 0.85; score 0.39 < 0.5.
    assertThat(poll(ConsolidationPolicy.BALANCED, costly(pod("p", "cpu", "500m")))).isEmpty();
    DisruptionCommand other = poll(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, costly(pod("p", "cpu", "500m")))
        .orElseThrow();
    assertThat(other.replacements()).singleElement()
        .satisfies(r -> assertThat(r.instanceType().name()).isEqualTo("m5.large"));
    assertThat(other.approvals()).isEmpty();
  }
}
