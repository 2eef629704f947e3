package io.gpufleet.autoscaler.disruption;

import static io.gpufleet.autoscaler.disruption.DisruptionViews.candidates;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.node;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.pod;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.pool;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.random;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.simulation;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.type;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.view;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.DisruptionReason;
import io.gpufleet.model.karpenter.NodePool;
import org.junit.jupiter.api.Test;

class SingleNodeConsolidationTest {

  @Test
  void replacesAnOversizedNodeWithTheCheapestThatHoldsItsPods() {
    NodePool pool = pool();
    SingleNodeConsolidation single = new SingleNodeConsolidation(simulation(pool));
    StateNode big = node(pool, "m5.2xlarge", 1, pod("a"));
    ClusterView view = view(pool, big);
    DisruptionCommand cmd = single.computeCommand(candidates(single, view), view, random()).orElseThrow();
    assertThat(cmd.method()).isEqualTo(DisruptionCommand.Method.SINGLE_NODE_CONSOLIDATION);
    assertThat(cmd.reason()).isEqualTo(DisruptionReason.UNDERUTILIZED);
    assertThat(cmd.candidates()).containsExactly(big.name());
    assertThat(cmd.replacements()).hasSize(1);
    assertThat(cmd.replacements().getFirst().instanceType().name()).isEqualTo("m5.large");
    assertThat(cmd.replacementPrice()).isLessThan(cmd.candidatePrice());
  }

  @Test
  void deletesWhenThePodsFitOnAnotherNode() {
    NodePool pool = pool();
    SingleNodeConsolidation single = new SingleNodeConsolidation(simulation(pool));
    StateNode a = node(pool, "m5.xlarge", 1, pod("a"));
    StateNode b = node(pool, "m5.xlarge", 2, pod("b"));
    ClusterView view = view(pool, a, b);
    DisruptionCommand cmd = single.computeCommand(candidates(single, view), view, random()).orElseThrow();
    assertThat(cmd.isDelete()).isTrue();
    assertThat(cmd.candidates()).containsExactly(a.name().compareTo(b.name()) < 0 ? a.name() : b.name());
  }

  @Test
  void neverReplacesWithSomethingNotCheaper() {
    NodePool pool = pool();
    SingleNodeConsolidation single = new SingleNodeConsolidation(simulation(pool));
    // m5.large is the cheapest m5: nothing cheaper can take its pod.
    assertThat(type("m5.large").offerings().stream().mapToDouble(o -> o.pricePerHour()).min().orElseThrow())
        .isLessThan(type("m5.xlarge").offerings().stream().mapToDouble(o -> o.pricePerHour()).min().orElseThrow());
    ClusterView view = view(pool, node(pool, "m5.large", 1, pod("a")));
    assertThat(single.computeCommand(candidates(single, view), view, random())).isEmpty();
  }

  @Test
  void triesTheCandidateWorthMostPerUnitOfDisruptionFirst() {
    NodePool pool = pool();
    SingleNodeConsolidation single = new SingleNodeConsolidation(simulation(pool));
    // Both could shrink; the dearer node with fewer pods is worth more per unit of disruption.
    StateNode cheapBusy = node(pool, "m5.xlarge", 1, pod("a"), pod("b"));
    StateNode dearIdle = node(pool, "m5.2xlarge", 2, pod("c"));
    ClusterView view = view(pool, cheapBusy, dearIdle);
    DisruptionCommand cmd = single.computeCommand(candidates(single, view), view, random()).orElseThrow();
    assertThat(cmd.candidates()).containsExactly(dearIdle.name());
  }
}
