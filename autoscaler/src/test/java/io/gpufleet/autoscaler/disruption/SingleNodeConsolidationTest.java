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
import io.gpufleet.autoscaler.testing.Fixtures;
import java.util.List;
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

  /**
   * ComputeCommands ({@code K:pkg/controllers/disruption/singlenodeconsolidation.go}) tries every
   * candidate in order and skips one only when its NodePool's budget is used up: a candidate that
   * yields nothing uses no budget. The budget half is upstream's "should only allow 3 nodes to be
   * deleted in single node consolidation delete" ({@code consolidation_test.go}), one command per
   * reconcile within a 30% budget.
   */
  @Test
  void anUnconsolidatableFirstCandidateDoesNotHideAReplaceableSecondUnderAOneNodeBudget() {
    NodePool base = pool();
    NodePool pool = base.withDisruption(base.disruption().withBudgets(List.of(DisruptionViews.budget(1))));
    SingleNodeConsolidation single = new SingleNodeConsolidation(simulation(pool));
    // Ranked first (dearer, one pod each), but its 7-CPU pod needs the whole m5.2xlarge.
    StateNode stuck = node(pool, "m5.2xlarge", 1, Fixtures.cpuPod("big", "7", "1Gi"));
    StateNode oversized = node(pool, "m5.xlarge", 2, pod("a"));
    ClusterView view = view(pool, stuck, oversized);
    assertThat(Consolidation.sorted(candidates(single, view)).getFirst().name()).isEqualTo(stuck.name());
    DisruptionCommand cmd = single.computeCommand(candidates(single, view), view, random()).orElseThrow();
    assertThat(cmd.candidates()).containsExactly(oversized.name());
    assertThat(cmd.replacements()).singleElement()
        .satisfies(r -> assertThat(r.instanceType().name()).isEqualTo("m5.large"));
  }

  /** A NodePool whose budget is used up is skipped ({@code disruptionBudgetMapping[...] == 0}). */
  @Test
  void aPoolWithNoBudgetLeftIsSkipped() {
    NodePool base = pool();
    NodePool pool = base.withDisruption(base.disruption().withBudgets(List.of(DisruptionViews.budget(0))));
    SingleNodeConsolidation single = new SingleNodeConsolidation(simulation(pool));
    ClusterView view = view(pool, node(pool, "m5.2xlarge", 1, pod("a")));
    assertThat(candidates(single, view)).hasSize(1);
    assertThat(single.computeCommand(candidates(single, view), view, random())).isEmpty();
  }
}
