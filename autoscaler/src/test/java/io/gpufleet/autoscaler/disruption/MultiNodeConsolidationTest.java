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
import io.gpufleet.autoscaler.testing.Fixtures;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.DisruptionReason;
import io.gpufleet.model.karpenter.NodePool;
import java.util.List;
import org.junit.jupiter.api.Test;

class MultiNodeConsolidationTest {

  /** Three m5.xlarge with one 1-CPU pod each. */
  static List<StateNode> threeSmall(NodePool pool) {
    return List.of(node(pool, "m5.xlarge", 1, pod("a")), node(pool, "m5.xlarge", 2, pod("b")),
        node(pool, "m5.xlarge", 3, pod("c")));
  }

  /** Three m5.xlarge with one 1.5-CPU pod each: no two of them fit beside the third's. */
  static List<StateNode> threeHalfFull(NodePool pool) {
    return List.of(node(pool, "m5.xlarge", 1, Fixtures.cpuPod("a", "1500m", "1Gi")),
        node(pool, "m5.xlarge", 2, Fixtures.cpuPod("b", "1500m", "1Gi")),
        node(pool, "m5.xlarge", 3, Fixtures.cpuPod("c", "1500m", "1Gi")));
  }

  @Test
  void replacesTheWholeSetWithOneCheaperNode() {
    NodePool pool = pool();
    MultiNodeConsolidation multi = new MultiNodeConsolidation(simulation(pool));
    List<StateNode> nodes = threeHalfFull(pool);
    ClusterView view = view(pool, nodes);
    DisruptionCommand cmd = multi.computeCommand(candidates(multi, view), view, random()).orElseThrow();
    assertThat(cmd.method()).isEqualTo(DisruptionCommand.Method.MULTI_NODE_CONSOLIDATION);
    assertThat(cmd.reason()).isEqualTo(DisruptionReason.UNDERUTILIZED);
    // The search keeps the longest prefix that consolidates: all three, onto one node of another type
    // (an m5.xlarge, the type being removed, is filtered out and could not hold 4.5 CPUs anyway).
    assertThat(cmd.candidates()).containsExactlyInAnyOrderElementsOf(nodes.stream().map(StateNode::name).toList());
    assertThat(cmd.replacements()).hasSize(1);
    assertThat(cmd.replacements().getFirst().instanceType().name()).isNotEqualTo("m5.xlarge");
    assertThat(cmd.replacementPrice()).isLessThan(cmd.candidatePrice());
  }

  @Test
  void deletesTwoWhenTheThirdHoldsTheirPods_ratherThanBuyingOneOfTheSameType() {
    // Three 1-CPU pods fit on one m5.xlarge. Replacing all three with a new m5.xlarge is cheaper than
    // three, but it is the type being removed at its own price: filterOutSameInstanceType drops it,
    // so the longest prefix that consolidates is two nodes deleted onto the third.
    NodePool pool = pool();
    MultiNodeConsolidation multi = new MultiNodeConsolidation(simulation(pool));
    List<StateNode> small = threeSmall(pool);
    ClusterView view = view(pool, small);
    DisruptionCommand cmd = multi.computeCommand(candidates(multi, view), view, random()).orElseThrow();
    assertThat(cmd.isDelete()).isTrue();
    assertThat(cmd.candidates()).hasSize(2);
  }

  @Test
  void triesPrefixesOfTheRankedCandidates_soAnImmovableFirstOneBlocksIt() {
    NodePool pool = pool();
    MultiNodeConsolidation multi = new MultiNodeConsolidation(simulation(pool));
    // Ranked first (dearest per unit of disruption), yet its 15-CPU pod fits only an m5.4xlarge, which
    // is no cheaper than itself.
    StateNode big = node(pool, "m5.4xlarge", 1, Fixtures.cpuPod("big", "15", "1Gi"));
    StateNode a = node(pool, "m5.xlarge", 2, pod("a"));
    StateNode b = node(pool, "m5.xlarge", 3, pod("b"));
    StateNode c = node(pool, "m5.xlarge", 4, pod("c"));
    ClusterView view = view(pool, big, a, b, c);
    List<Candidate> ranked = Candidates.withinBudgets(Consolidation.sorted(candidates(multi, view)),
        () -> DisruptionBudgets.allowed(view, DisruptionReason.UNDERUTILIZED));
    assertThat(ranked.getFirst().name()).isEqualTo(big.name());
    assertThat(multi.computeCommand(candidates(multi, view), view, random())).isEmpty();
    // Without it, two of the other three go, their pods onto the third.
    ClusterView without = view(pool, a, b, c);
    DisruptionCommand cmd = multi.computeCommand(candidates(multi, without), without, random()).orElseThrow();
    assertThat(cmd.isDelete()).isTrue();
    assertThat(cmd.candidates()).hasSize(2).isSubsetOf(a.name(), b.name(), c.name());
  }

  @Test
  void needsAtLeastTwoCandidatesWithinBudget() {
    NodePool pool = pool();
    MultiNodeConsolidation multi = new MultiNodeConsolidation(simulation(pool));
    ClusterView alone = view(pool, node(pool, "m5.xlarge", 1, pod("a")));
    assertThat(multi.computeCommand(candidates(multi, alone), alone, random())).isEmpty();

    NodePool one = pool.withDisruption(pool.disruption().withBudgets(List.of(DisruptionViews.budget(1))));
    ClusterView budgeted = view(one, node(one, "m5.xlarge", 1, pod("a")), node(one, "m5.xlarge", 2, pod("b")),
        node(one, "m5.xlarge", 3, pod("c")));
    assertThat(multi.computeCommand(candidates(multi, budgeted), budgeted, random())).isEmpty();
  }

  @Test
  void whenEmptyPoolsAndEmptyNodesAreNotConsolidationsToMake() {
    NodePool whenEmpty = pool(ConsolidationPolicy.WHEN_EMPTY);
    MultiNodeConsolidation multi = new MultiNodeConsolidation(simulation(whenEmpty));
    ClusterView view = view(whenEmpty, node(whenEmpty, "m5.xlarge", 1, pod("a")),
        node(whenEmpty, "m5.xlarge", 2, pod("b")));
    assertThat(candidates(multi, view)).isEmpty();

    NodePool pool = pool();
    ClusterView empties = view(pool, node(pool, "m5.xlarge", 1), node(pool, "m5.xlarge", 2));
    assertThat(candidates(multi, empties)).isEmpty(); // emptiness takes those
  }

  @Test
  void validationAbandonsWhenTheDecisionChanged() {
    NodePool pool = pool();
    MultiNodeConsolidation multi = new MultiNodeConsolidation(simulation(pool));
    List<StateNode> small = threeHalfFull(pool);
    ClusterView view = view(pool, small);
    DisruptionCommand cmd = multi.computeCommand(candidates(multi, view), view, random()).orElseThrow();
    List<Candidate> chosen = candidates(multi, view);
    var ok = multi.validate(cmd, chosen, view, random());
    assertThat(ok).isInstanceOf(DisruptionController.Validation.Execute.class);
    assertThat(((DisruptionController.Validation.Execute) ok).command().replacements()).hasSize(1);

    // A roomy node joined meanwhile: the pods now fit there, so the replace would be a delete.
    StateNode roomy = node(pool, "m5.4xlarge", 4, DisruptionViews.doNotDisrupt(pod("pinned")));
    ClusterView later = view(pool, small.get(0), small.get(1), small.get(2), roomy);
    assertThat(multi.validate(cmd, chosen, later, random()))
        .isEqualTo(new DisruptionController.Validation.Abandon("the consolidation decision changed"));
  }
}
