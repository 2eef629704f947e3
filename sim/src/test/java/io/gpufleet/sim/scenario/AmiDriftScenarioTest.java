package io.gpufleet.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.cloud.AllocatableEstimate;
import io.gpufleet.model.karpenter.Budget;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.Disruption;
import io.gpufleet.model.karpenter.EC2NodeClass;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.workload.IntOrPercent;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.testing.Objects;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * A GPU driver/AMI upgrade: the EC2NodeClass's {@code amiSelectorTerms} alias moves to a new version,
 * every GPU node drifts ({@code AMIDrift}, {@code A:pkg/cloudprovider/drift.go} isAMIDrifted) and is
 * replaced within the NodePool's Drifted budget, the PDB holding.
 */
class AmiDriftScenarioTest {

  static EC2NodeClass nodeClass(String alias) {
    return new EC2NodeClass("default", OptionalInt.empty(), OptionalInt.empty(),
        AllocatableEstimate.Reservations.DEFAULTS, Optional.empty(), "static-1", EC2NodeClass.imageIdOf(alias));
  }

  @Test
  void aNewAliasVersionRollsTheGpuNodesWithinTheBudget() {
    NodePool p = Objects.withRequirement(Objects.gpuPool("gpu", List.of("g6"), "on-demand")
        .withDisruption(new Disruption(ConsolidationPolicy.WHEN_EMPTY, Optional.of(Duration.ofHours(1)),
            List.of(Budget.nodes(new IntOrPercent.Count(1))))),
        NodePoolRequirement.in("karpenter.k8s.aws/instance-gpu-count", "1"));
    Scenario s = Scenario.builder("ami upgrade").settings(DisruptionLifecycleScenarioTest.FULL)
        .object(new ClusterObject.NodeClassObject(nodeClass("al2023@v20240807")))
        .object(ClusterObject.of(p))
        .object(ClusterObject.of(Objects.inference("llm", 3, 1, Labels.EMPTY)))
        .object(ClusterObject.of(Objects.minAvailable("llm-pdb", "llm", 2)))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 3), Duration.ofMinutes(10)))
        .then(new ScenarioAction.Apply(List.of(new ClusterObject.NodeClassObject(nodeClass("al2023@v20241011")))))
        .then(new ScenarioAction.Wait(Duration.ofHours(1)))
        .then(new ScenarioAction.Expect("three GPU nodes, all serving", new Condition.All(List.of(
            Condition.nodeCount(LabelSelector.EVERYTHING, Comparison.EQ, 3),
            Condition.readyPods("llm", Comparison.EQ, 3)))))
        .build();
    SimulationResult r = Simulation.run(s);
    assertThat(r.violations()).isEmpty();
    assertThat(r.allExpectationsPassed()).as(r.expectations().toString()).isTrue();
    assertThat(r.record().of(RunRecord.Kind.NODECLAIM_DRIFTED)).hasSize(3)
        .allSatisfy(e -> assertThat(e.message()).isEqualTo("AMIDrift"));
    assertThat(r.metrics().disruptionsByReason()).containsEntry("Drifted", 3);
    // The budget of one node: three replacements, one at a time; the PDB keeps two serving.
    assertThat(r.record().of(RunRecord.Kind.DISRUPTION_EXECUTED)).hasSize(3)
        .allSatisfy(e -> assertThat(e.message()).startsWith("Drift (Drifted): replace"));
    assertThat(r.metrics().service(new ObjectRef("Deployment", "default", "llm")).orElseThrow().minReady()
        .orElseThrow()).isGreaterThanOrEqualTo(2);
    // The replacements booted the new AMI: nothing drifts after the roll.
    assertThat(r.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED)).hasSize(6);
  }

  @Test
  void reapplyingTheSameAliasDriftsNothing() {
    NodePool p = Objects.withRequirement(Objects.gpuPool("gpu", List.of("g6"), "on-demand"),
        NodePoolRequirement.in("karpenter.k8s.aws/instance-gpu-count", "1"));
    Scenario s = Scenario.builder("same ami").settings(DisruptionLifecycleScenarioTest.FULL)
        .object(new ClusterObject.NodeClassObject(nodeClass("al2023@v20240807")))
        .object(ClusterObject.of(p))
        .object(ClusterObject.of(Objects.inference("llm", 2, 1, Labels.EMPTY)))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 2), Duration.ofMinutes(10)))
        .then(new ScenarioAction.Apply(List.of(new ClusterObject.NodeClassObject(nodeClass("al2023@v20240807")))))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(30)))
        .build();
    SimulationResult r = Simulation.run(s);
    assertThat(r.violations()).isEmpty();
    assertThat(r.record().of(RunRecord.Kind.NODECLAIM_DRIFTED)).isEmpty();
  }
}
