package io.gpufleet.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.testing.Objects;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConsolidationScenarioTest {

  static final SimulationSettings FULL = SimulationSettings.DEFAULTS
      .withInvariants(SimulationSettings.InvariantMode.FULL);

  static Condition nodes(int n) {
    return Condition.nodeCount(LabelSelector.EVERYTHING, Comparison.EQ, n);
  }

  static NodePool pool(ConsolidationPolicy policy, Duration after) {
    return Objects.withPolicy(Objects.gpuPool("gpu", List.of("g5", "g6"), "on-demand"), policy, after);
  }

  @Test
  void whenEmptyKeepsAnInferenceNodeThatLosesOneOfItsTwoPods() {
    Scenario s = Scenario.builder("WhenEmpty keeps a half-used node").settings(FULL)
        .object(ClusterObject.of(pool(ConsolidationPolicy.WHEN_EMPTY, Duration.ofMinutes(10))))
        .object(ClusterObject.of(Objects.inference("llm", 2, 1, Labels.EMPTY)))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 2), Duration.ofMinutes(15)))
        .then(new ScenarioAction.Expect("both pods share one node", nodes(1)))
        .then(new ScenarioAction.Scale("llm", 1))
        .then(new ScenarioAction.Wait(Duration.ofHours(1)))
        .then(new ScenarioAction.Expect("the node stays", nodes(1)))
        .then(new ScenarioAction.Expect("its pod still runs there", new Condition.PodRunningOn("llm",
            NodeRef.selected(LabelSelector.EVERYTHING, 0))))
        .then(new ScenarioAction.Scale("llm", 0))
        .then(new ScenarioAction.WaitUntil(nodes(0), Duration.ofMinutes(30)))
        .build();
    SimulationResult r = Simulation.run(s);
    assertThat(r.violations()).isEmpty();
    assertThat(r.allExpectationsPassed()).as(r.expectations().toString()).isTrue();
    assertThat(r.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED)).singleElement()
        .satisfies(e -> assertThat(e.message()).startsWith("g6.12xlarge"));
    // Empty only after the last pod exits; deleted no sooner than consolidateAfter later (reference §1.3).
    Instant lastExit = r.record().of(RunRecord.Kind.POD_EXITED).getLast().time();
    var deleting = r.record().of(RunRecord.Kind.NODECLAIM_DELETING);
    assertThat(deleting).singleElement().satisfies(e -> {
      assertThat(e.message()).isEqualTo("Empty");
      assertThat(Duration.between(lastExit, e.time())).isBetween(Duration.ofMinutes(10),
          Duration.ofMinutes(10).plusSeconds(10 + 15));
    });
    assertThat(r.metrics().disruptionsByReason()).containsEntry("Empty", 1).doesNotContainKey("Underutilized");
  }

  @Test
  void theDefaultPolicyReplacesTheSameHalfUsedNodeWithACheaperOne() {
    Scenario s = Scenario.builder("default policy consolidates").settings(FULL)
        .object(ClusterObject.of(pool(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ZERO)))
        .object(ClusterObject.of(Objects.inference("llm", 2, 1, Labels.EMPTY)))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 2), Duration.ofMinutes(15)))
        .then(new ScenarioAction.Scale("llm", 1))
        .then(new ScenarioAction.Wait(Duration.ofHours(1)))
        .then(new ScenarioAction.Expect("one node", nodes(1)))
        .then(new ScenarioAction.Expect("a single-GPU type now", Condition.nodeCount(LabelSelector.matching(
            Labels.of("node.kubernetes.io/instance-type", "g6.xlarge")), Comparison.EQ, 1)))
        .build();
    SimulationResult r = Simulation.run(s);
    assertThat(r.violations()).isEmpty();
    assertThat(r.allExpectationsPassed()).as(r.expectations().toString()).isTrue();
    assertThat(r.metrics().disruptionsByReason()).containsEntry("Underutilized", 1);
  }

  /** An adopted, under-used g5.12xlarge (4 A10G, 2 used) runs two replicas guarded by a PDB. */
  static Scenario.Builder underUsedG5(ConsolidationPolicy policy, Workload.Deployment llm, int pdbMin) {
    Scenario.Builder b = Scenario.builder("under-used g5.12xlarge").settings(FULL)
        .object(ClusterObject.of(pool(policy, Duration.ZERO)))
        .object(ClusterObject.of(Objects.adopted("big", "gpu", "g5.12xlarge", "on-demand")))
        .object(ClusterObject.of(llm));
    if (pdbMin > 0) {
      b.object(ClusterObject.of(Objects.minAvailable("llm-pdb", "llm", pdbMin)));
    }
    return b;
  }

  @Test
  void theDefaultPolicyReplacesAnUnderUsedG5WithACheaperFittingTypeWithinThePdb() {
    Workload.Deployment llm = Objects.inference("llm", 2, 1,
        Labels.of("gpufleet.io/requests-per-second", "20", "gpufleet.io/request-duration", "2s"));
    Scenario s = underUsedG5(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, llm, 1)
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 2), Duration.ofMinutes(5)))
        .then(new ScenarioAction.Wait(Duration.ofHours(1)))
        .then(new ScenarioAction.Expect("the g5.12xlarge is gone", Condition.nodeCount(LabelSelector.matching(
            Labels.of("node.kubernetes.io/instance-type", "g5.12xlarge")), Comparison.EQ, 0)))
        .then(new ScenarioAction.Expect("a cheaper 4-GPU g6.12xlarge hosts both", new Condition.All(List.of(
            Condition.nodeCount(LabelSelector.matching(Labels.of("node.kubernetes.io/instance-type", "g6.12xlarge")),
                Comparison.EQ, 1),
            Condition.readyPods("llm", Comparison.EQ, 2)))))
        .build();
    SimulationResult r = Simulation.run(s);
    assertThat(r.violations()).isEmpty();
    assertThat(r.allExpectationsPassed()).as(r.expectations().toString()).isTrue();
    var executed = r.record().of(RunRecord.Kind.DISRUPTION_EXECUTED);
    assertThat(executed).singleElement().satisfies(e -> assertThat(e.message())
        .contains("replace big with g6.12xlarge/on-demand"));
    assertThat(r.metrics().service(new ObjectRef("Deployment", "default", "llm"))).hasValueSatisfying(m -> {
      assertThat(m.minReady().orElseThrow()).isGreaterThanOrEqualTo(1);
      assertThat(m.outageSeconds()).isZero();
      assertThat(m.lostRequests()).hasValue(0.0);
    });
    // The PDB let one pod go at a time: the second eviction waited for the first replacement to be Ready.
    var evictions = r.record().of(RunRecord.Kind.POD_EVICTED);
    assertThat(evictions).hasSize(2);
    assertThat(evictions.get(1).time()).isAfter(evictions.get(0).time());
  }

  @Test
  void doNotDisruptAndABlockingPdbKeepTheNodeWhileAPlainPodLetsItGo() {
    Workload.Deployment pinned = Objects.withPodAnnotations(Objects.inference("llm", 1, 1, Labels.EMPTY),
        Labels.of(KarpenterLabels.DO_NOT_DISRUPT, "true"));
    Workload.Deployment plain = Objects.inference("llm", 1, 1, Labels.EMPTY);
    for (var c : List.of(new Object[] {pinned, 0, true}, new Object[] {plain, 1, true}, new Object[] {plain, 0,
        false})) {
      Scenario s = underUsedG5(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, (Workload.Deployment) c[0], (int) c[1])
          .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 1), Duration.ofMinutes(5)))
          .then(new ScenarioAction.Wait(Duration.ofHours(2)))
          .build();
      SimulationResult r = Simulation.run(s);
      assertThat(r.violations()).isEmpty();
      boolean kept = (boolean) c[2];
      assertThat(r.finalState().nodes().get("big") != null).as("g5.12xlarge kept for " + c[1]).isEqualTo(kept);
      if (kept) {
        assertThat(r.record().of(RunRecord.Kind.POD_EVICTED)).isEmpty();
        assertThat(r.record().of(RunRecord.Kind.DISRUPTION_EXECUTED)).isEmpty();
      } else {
        assertThat(r.finalState().nodes().values()).extracting(NodeState::node)
            .allSatisfy(n -> assertThat(n.labels().get("node.kubernetes.io/instance-type")).contains("g6.xlarge"));
      }
    }
  }

  /**
   * policy/v1: a null selector matches no pod, an empty one ({@code {}}) every pod of the namespace
   * ({@code k8s.io/api/policy/v1/types.go}); Karpenter reads it so ({@code K:pkg/utils/pdb/pdb.go}
   * newPdb, {@code metav1.LabelSelectorAsSelector}), as the disruption controller does for its status.
   */
  @Test
  void anEmptyPdbSelectorHoldsEveryPodOfItsNamespaceFromConsolidationAndANullOneNone() {
    Workload.Deployment plain = Objects.inference("llm", 1, 1, Labels.EMPTY);
    var cases = List.of(
        new Object[] {Optional.of(LabelSelector.EVERYTHING), true},
        new Object[] {Optional.<LabelSelector>empty(), false},
        new Object[] {Optional.of(LabelSelector.matching(Labels.of("app", "other"))), false});
    for (Object[] c : cases) {
      @SuppressWarnings("unchecked")
      Optional<LabelSelector> selector = (Optional<LabelSelector>) c[0];
      Scenario s = underUsedG5(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, plain, 0)
          .object(ClusterObject.of(Objects.minAvailable("all", selector, 1)))
          .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 1), Duration.ofMinutes(5)))
          .then(new ScenarioAction.Wait(Duration.ofHours(2)))
          .build();
      SimulationResult r = Simulation.run(s);
      assertThat(r.violations()).isEmpty();
      boolean kept = (boolean) c[1];
      assertThat(r.finalState().nodes().get("big") != null).as("g5.12xlarge kept with selector " + selector)
          .isEqualTo(kept);
      if (kept) {
        assertThat(r.record().of(RunRecord.Kind.DISRUPTION_EXECUTED)).isEmpty();
        assertThat(r.record().toString()).contains("DisruptionBlocked: Pdb prevents pod evictions (PodDisruptionBudget=default/all)");
      } else {
        assertThat(r.record().of(RunRecord.Kind.DISRUPTION_EXECUTED)).hasSize(1);
      }
    }
  }

  @Test
  void aDurationDoNotDisruptHoldsTheNodeForThatLongAfterThePodStarted() {
    // As theDefaultPolicyReplacesTheSameHalfUsedNodeWithACheaperOne, but the pods say "do not disrupt
    // me for 2h": the half-used node is replaced only once that has run out for the pod left on it.
    Workload.Deployment llm = Objects.withPodAnnotations(Objects.inference("llm", 2, 1, Labels.EMPTY),
        Labels.of(KarpenterLabels.DO_NOT_DISRUPT, "2h"));
    Scenario s = Scenario.builder("duration do-not-disrupt").settings(FULL)
        .object(ClusterObject.of(pool(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ZERO)))
        .object(ClusterObject.of(llm))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 2), Duration.ofMinutes(15)))
        .then(new ScenarioAction.Scale("llm", 1))
        .then(new ScenarioAction.Wait(Duration.ofHours(3)))
        .build();
    SimulationResult r = Simulation.run(s);
    assertThat(r.violations()).isEmpty();
    var bound = r.record().of(RunRecord.Kind.POD_SCHEDULED);
    Instant lastStart = bound.get(1).time(); // the second of the two first pods
    var executed = r.record().of(RunRecord.Kind.DISRUPTION_EXECUTED);
    assertThat(executed).isNotEmpty();
    // Not before two hours after the pods started; and soon after, not at some later poll by chance.
    assertThat(executed.getFirst().time()).isAfterOrEqualTo(bound.getFirst().time().plus(Duration.ofHours(2)))
        .isBefore(lastStart.plus(Duration.ofHours(2)).plus(Duration.ofMinutes(2)));
    // Meanwhile the record says why consolidation left the node, as Karpenter's DisruptionBlocked event
    // would (NewCandidate, pkg/controllers/disruption/types.go; statenode.go's words).
    assertThat(r.record().of(RunRecord.Kind.KARPENTER_EVENT)).anySatisfy(e -> {
      assertThat(e.message()).startsWith("DisruptionBlocked: Pod has \"karpenter.sh/do-not-disrupt\" annotation "
          + "(Pod=default/llm-").endsWith(")");
      assertThat(e.time()).isBefore(executed.getFirst().time());
    });
  }
}
