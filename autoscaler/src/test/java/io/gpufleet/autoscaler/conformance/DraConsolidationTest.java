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
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Not an upstream case: consolidation reschedules a candidate's pods with the same scheduler
 * ({@code K:pkg/controllers/disruption/helpers.go} SimulateScheduling), so a pod Karpenter refuses for its
 * DRA claims keeps its node from being consolidated, as any pod that would not schedule does.
 */
class DraConsolidationTest {

  @Test
  void aNodeWhosePodHasClaimsIsNotConsolidated() {
    NodePool under = consolidating(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ZERO, 100);
    StateNode a = node(under, "m5.large", 1, owned(pod("a", "cpu", "100m")), owned(pod("b", "cpu", "100m")));
    Pod plain = owned(pod("c", "cpu", "100m"));
    // Without claims the node with one pod goes (as "should consolidate the node with best savings ratio first").
    assertThat(pollAt(T0.plus(Duration.ofHours(1)), under, List.of(a, node(under, "m5.large", 2, plain)), List.of())
        .map(DisruptionCommand::candidates)).contains(List.of(node(under, "m5.large", 2, plain).name()));
    StateNode claiming = node(under, "m5.large", 2, DraCases.claiming(plain, List.of("gpu")));
    Optional<DisruptionCommand> cmd = pollAt(T0.plus(Duration.ofHours(1)), under, List.of(a, claiming), List.of());
    assertThat(cmd.map(DisruptionCommand::candidates).orElse(List.of())).doesNotContain(claiming.name());
  }
}
