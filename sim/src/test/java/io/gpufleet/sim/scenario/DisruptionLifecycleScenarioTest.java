package io.gpufleet.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.karpenter.Budget;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.CronSchedule;
import io.gpufleet.model.karpenter.Disruption;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.workload.IntOrPercent;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.testing.Objects;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DisruptionLifecycleScenarioTest {

  static final SimulationSettings FULL = SimulationSettings.DEFAULTS
      .withInvariants(SimulationSettings.InvariantMode.FULL);

  static NodePool pool() {
    return Objects.gpuPool("gpu", List.of("g6"), "on-demand");
  }

  @Test
  void expiryDeletesWithoutBudgetsAndProvisioningReplaces() {
    NodePool p = pool();
    // A budget of zero stops every voluntary disruption, not expiry (reference §1.5, §1.6).
    p = p.withTemplate(p.template().withExpireAfter(Optional.of(Duration.ofHours(2))))
        .withDisruption(Disruption.DEFAULT.withBudgets(List.of(Budget.nodes(new IntOrPercent.Count(0)))));
    Scenario s = Scenario.builder("expiry").settings(FULL)
        .object(ClusterObject.of(p))
        .object(ClusterObject.of(Objects.inference("llm", 1, 1, Labels.EMPTY)))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 1), Duration.ofMinutes(10)))
        .then(new ScenarioAction.Wait(Duration.ofHours(3)))
        .then(new ScenarioAction.Expect("served again", Condition.readyPods("llm", Comparison.EQ, 1)))
        .build();
    SimulationResult r = Simulation.run(s);
    assertThat(r.violations()).isEmpty();
    assertThat(r.allExpectationsPassed()).as(r.expectations().toString()).isTrue();
    var deleting = r.record().of(RunRecord.Kind.NODECLAIM_DELETING);
    assertThat(deleting).first().satisfies(e -> {
      assertThat(e.message()).isEqualTo("Expired");
      assertThat(e.time()).isEqualTo(Scenario.DEFAULT_START.plusSeconds(1).plus(Duration.ofHours(2)));
    });
    assertThat(r.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED)).hasSizeGreaterThanOrEqualTo(2);
  }

  @Test
  void aChangedTemplateDriftsAndIsReplacedWithinTheBudget() {
    NodePool p = pool().withDisruption(new Disruption(ConsolidationPolicy.WHEN_EMPTY, Optional.of(Duration.ofHours(1)),
        List.of(Budget.nodes(new IntOrPercent.Count(1)))));
    NodePool relabelled = p.withTemplate(p.template().withLabels(Labels.of("team", "ml")));
    Scenario s = Scenario.builder("drift").settings(FULL)
        .object(ClusterObject.of(Objects.withRequirement(p, io.gpufleet.model.karpenter.NodePoolRequirement.in(
            "karpenter.k8s.aws/instance-gpu-count", "1"))))
        .object(ClusterObject.of(Objects.inference("llm", 3, 1, Labels.EMPTY)))
        .object(ClusterObject.of(Objects.minAvailable("llm-pdb", "llm", 2)))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 3), Duration.ofMinutes(10)))
        .then(new ScenarioAction.Apply(List.of(ClusterObject.of(Objects.withRequirement(relabelled,
            io.gpufleet.model.karpenter.NodePoolRequirement.in("karpenter.k8s.aws/instance-gpu-count", "1"))))))
        .then(new ScenarioAction.Wait(Duration.ofHours(1)))
        .then(new ScenarioAction.Expect("every node carries the new label", new Condition.All(List.of(
            Condition.nodeCount(LabelSelector.matching(Labels.of("team", "ml")), Comparison.EQ, 3),
            Condition.nodeCount(LabelSelector.EVERYTHING, Comparison.EQ, 3)))))
        .build();
    SimulationResult r = Simulation.run(s);
    assertThat(r.violations()).isEmpty();
    assertThat(r.allExpectationsPassed()).as(r.expectations().toString()).isTrue();
    assertThat(r.record().of(RunRecord.Kind.NODECLAIM_DRIFTED)).hasSize(3)
        .allSatisfy(e -> assertThat(e.message()).isEqualTo("NodePoolDrifted"));
    assertThat(r.metrics().disruptionsByReason()).containsEntry("Drifted", 3);
    // The budget of one node: never two drifted nodes deleting at once.
    var executed = r.record().of(RunRecord.Kind.DISRUPTION_EXECUTED);
    assertThat(executed).hasSize(3).allSatisfy(e -> assertThat(e.message()).startsWith("Drift (Drifted): replace"));
    assertThat(r.metrics().service(new ObjectRef("Deployment", "default", "llm")).orElseThrow().minReady().orElseThrow()).isGreaterThanOrEqualTo(2);
  }

  @Test
  void aScheduledZeroBudgetHoldsConsolidationUntilItsWindowCloses() {
    // Office hours on a Monday: no Underutilized disruption from 00:00 for 2h.
    Budget office = new Budget(new IntOrPercent.Count(0), Optional.of(CronSchedule.parse("0 0 * * mon")),
        Optional.of(Duration.ofHours(2)), Set.of(io.gpufleet.model.karpenter.DisruptionReason.UNDERUTILIZED));
    NodePool p = Objects.withPolicy(pool(), ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ZERO);
    p = p.withDisruption(p.disruption().withBudgets(List.of(Budget.DEFAULT, office)));
    Scenario s = Scenario.builder("budget window").settings(FULL)
        .object(ClusterObject.of(p))
        .object(ClusterObject.of(Objects.adopted("big", "gpu", "g6.12xlarge", "on-demand")))
        .object(ClusterObject.of(Objects.inference("llm", 1, 1, Labels.EMPTY)))
        .then(new ScenarioAction.Wait(Duration.ofHours(3)))
        .build();
    SimulationResult r = Simulation.run(s);
    assertThat(r.violations()).isEmpty();
    Instant windowEnd = Scenario.DEFAULT_START.plus(Duration.ofHours(2));
    assertThat(r.record().of(RunRecord.Kind.DISRUPTION_PROPOSED)).first()
        .satisfies(e -> assertThat(e.time()).isAfterOrEqualTo(windowEnd));
    assertThat(r.finalState().nodes().get("big")).isNull();
  }
}
