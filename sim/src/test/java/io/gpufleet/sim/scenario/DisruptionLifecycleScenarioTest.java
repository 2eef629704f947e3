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

  /**
   * An expiring node's drain goes through the Eviction API, which holds a pod to a PDB with an
   * empty selector as to one naming its labels (kubernetes/kubernetes#119732,
   * {@code pkg/registry/core/pod/storage/eviction.go} getPodDisruptionBudgets), and to none without
   * a selector: here the one replica is evicted at expiry only in that last case.
   */
  @Test
  void aPdbWithAnEmptySelectorHoldsAnExpiringNodesDrainAndOneWithoutNone() {
    NodePool p = pool();
    p = p.withTemplate(p.template().withExpireAfter(Optional.of(Duration.ofHours(2))));
    var cases = List.of(Optional.of(LabelSelector.EVERYTHING),
        Optional.of(LabelSelector.matching(Labels.of("app", "llm"))), Optional.<LabelSelector>empty());
    for (Optional<LabelSelector> selector : cases) {
      Scenario s = Scenario.builder("expiry under a PDB").settings(FULL)
          .object(ClusterObject.of(p))
          .object(ClusterObject.of(Objects.inference("llm", 1, 1, Labels.EMPTY)))
          .object(ClusterObject.of(Objects.minAvailable("all", selector, 1)))
          .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 1), Duration.ofMinutes(10)))
          .then(new ScenarioAction.Wait(Duration.ofHours(3)))
          .build();
      SimulationResult r = Simulation.run(s);
      assertThat(r.violations()).isEmpty();
      Instant expired = r.record().of(RunRecord.Kind.NODECLAIM_DELETING).getFirst().time();
      var evicted = r.record().of(RunRecord.Kind.POD_EVICTED);
      if (selector.isEmpty()) {
        assertThat(evicted).as(r.record().toString()).first().satisfies(e -> {
          assertThat(e.message()).startsWith("evicted (");
          assertThat(e.time()).isEqualTo(expired);
        });
      } else {
        assertThat(evicted).as("the budget holds the eviction, selector " + selector).isEmpty();
      }
    }
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

  /**
   * A pod whose grace outlasts the node's: upstream force-deletes it as soon as its own grace would
   * end past the node's termination time, with a grace period clamped to the time left
   * ({@code forceDelete} in {@code K:pkg/controllers/node/termination/terminator/eviction.go}); the
   * termination suite's "should update deletion timestamp for terminating pods when it is after node
   * deletion timestamp" ({@code K:pkg/controllers/node/termination/suite_test.go}: pod grace 6000s,
   * node 300s, about 210s granted 90s in). Here: pod grace 15m, the NodePool's 5m; the node is gone
   * at about +5m after expiry, not after the pod's 15m.
   */
  @Test
  void aPodsGraceBeyondTheNodesIsCutToTheNodesRemainingGrace() {
    NodePool p = pool();
    p = p.withTemplate(p.template().withExpireAfter(Optional.of(Duration.ofHours(2)))
        .withTerminationGracePeriod(Optional.of(Duration.ofMinutes(5))));
    // The pod would use all of its 15 minutes (shutdown declared longer than its grace).
    var llm = Objects.withGrace(Objects.withPodAnnotations(Objects.inference("llm", 1, 1, Labels.EMPTY),
        Labels.of("gpufleet.io/shutdown-duration", "30m")), 900);
    Scenario s = Scenario.builder("pod grace beyond the node's").settings(FULL)
        .object(ClusterObject.of(p))
        .object(ClusterObject.of(llm))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 1), Duration.ofMinutes(10)))
        .then(new ScenarioAction.Wait(Duration.ofHours(3)))
        .build();
    SimulationResult r = Simulation.run(s);
    assertThat(r.violations()).isEmpty();
    Instant expired = r.record().of(RunRecord.Kind.NODECLAIM_DELETING).getFirst().time();
    String claim = r.record().of(RunRecord.Kind.NODECLAIM_DELETING).getFirst().subject();
    var terminated = r.record().of(RunRecord.Kind.NODE_TERMINATED).stream()
        .filter(e -> e.subject().equals(claim)).findFirst().orElseThrow();
    Duration lingered = Duration.between(expired, terminated.time());
    assertThat(lingered).as(r.record().toString()).isBetween(Duration.ofMinutes(5), Duration.ofMinutes(6));
    var evicted = r.record().of(RunRecord.Kind.POD_EVICTED).getFirst();
    assertThat(evicted.message()).contains("force-deleted").contains("300s of grace");
    assertThat(evicted.time()).isEqualTo(expired);
    // The kubelet ends it when the 300s granted run out, not after its own 15 minutes.
    var ended = r.record().about(evicted.subject()).stream()
        .filter(e -> e.kind() == RunRecord.Kind.POD_KILLED || e.kind() == RunRecord.Kind.POD_EXITED).findFirst()
        .orElseThrow();
    assertThat(ended.time()).isEqualTo(expired.plusSeconds(300));
  }
}
