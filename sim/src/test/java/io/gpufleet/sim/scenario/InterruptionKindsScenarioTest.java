package io.gpufleet.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.label.Labels;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.testing.Objects;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every interruption kind a scenario can send, played end to end. The draining kinds follow the
 * provider's e2e suite ({@code A:test/suites/interruption/suite_test.go}: one pod with grace 0, the
 * instance interrupted, its node deleted and the pod healthy again elsewhere): "should terminate the
 * node at the API server when the EC2 instance is stopped", "... is terminated", "should terminate
 * the node when receiving a scheduled change health event". A rebalance recommendation is only an
 * event ({@code A:website/content/en/docs/concepts/disruption.md}); spot-only notices aimed at an
 * on-demand node do not happen (EC2 sends them to spot instances only).
 */
class InterruptionKindsScenarioTest {

  /** One pod (grace 0) on a 1-GPU node of this capacity type, interrupted with this notice. */
  static Scenario interrupted(String capacityType, InterruptionNotice notice) {
    var pool = Objects.withRequirement(Objects.gpuPool("gpu", List.of("g5", "g6"), capacityType),
        NodePoolRequirement.in("karpenter.k8s.aws/instance-gpu-count", "1"));
    var app = Objects.withGrace(Objects.inference("app", 1, 1, Labels.EMPTY), 0);
    return Scenario.builder(notice.describe() + " of a " + capacityType + " node")
        .settings(SimulationSettings.DEFAULTS.withInvariants(SimulationSettings.InvariantMode.FULL))
        .object(ClusterObject.of(pool))
        .object(ClusterObject.of(app))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("app", Comparison.EQ, 1), Duration.ofMinutes(15)))
        .then(new ScenarioAction.Interrupt(NodeRef.hosting("app", 0), notice))
        .then(new ScenarioAction.Checkpoint("2 The interruption"))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(20)))
        .then(new ScenarioAction.Expect("healthy again", Condition.readyPods("app", Comparison.EQ, 1)))
        .build();
  }

  static String firstNode(SimulationResult r) {
    return r.record().of(RunRecord.Kind.NODE_REGISTERED).getFirst().subject();
  }

  /** Karpenter's events about the node from the interruption step on. */
  static List<String> events(SimulationResult r, String node) {
    var since = r.record().about(node).stream().filter(e -> e.kind() == RunRecord.Kind.SCENARIO).findFirst()
        .orElseThrow().time();
    return r.record().about(node).stream().filter(e -> e.kind() == RunRecord.Kind.KARPENTER_EVENT)
        .filter(e -> !e.time().isBefore(since)).map(RunRecord.Entry::message).toList();
  }

  static void assertDeletedAndHealthyAgain(SimulationResult r, String event) {
    assertThat(r.violations()).isEmpty();
    assertThat(r.allExpectationsPassed()).as(r.expectations().toString()).isTrue();
    String node = firstNode(r);
    assertThat(events(r, node)).containsSubsequence(event,
        "TerminatingOnInterruption: Interruption triggered termination for the NodeClaim");
    assertThat(r.record().about(node)).anySatisfy(e -> {
      assertThat(e.kind()).isEqualTo(RunRecord.Kind.NODECLAIM_DELETING);
      assertThat(e.message()).contains("Interrupted");
    });
    assertThat(r.record().about(node)).anyMatch(e -> e.kind() == RunRecord.Kind.NODE_TERMINATED);
    assertThat(r.finalState().nodes().get(node)).isNull();
    assertThat(r.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED)).hasSize(2);
  }

  @Test
  void anInstanceStoppedByEc2IsDeletedAndItsPodComesBackElsewhere() {
    SimulationResult r = Simulation.run(interrupted("on-demand", InterruptionNotice.STOPPED));
    assertDeletedAndHealthyAgain(r, "InstanceStopping: Instance is stopping");
  }

  @Test
  void anInstanceTerminatedByEc2IsDeletedAndItsPodComesBackElsewhere() {
    SimulationResult r = Simulation.run(interrupted("on-demand", InterruptionNotice.TERMINATED));
    assertDeletedAndHealthyAgain(r, "InstanceTerminating: Instance is terminating");
  }

  @Test
  void aScheduledChangeDrainsTheNodeGracefullyAndReplacesIt() {
    SimulationResult r = Simulation.run(interrupted("on-demand", InterruptionNotice.SCHEDULED_CHANGE));
    assertDeletedAndHealthyAgain(r, "InstanceUnhealthy: An unhealthy warning was triggered for the instance");
    // The instance stays until Karpenter has drained it: its pod is evicted, never killed with it.
    assertThat(r.record().of(RunRecord.Kind.POD_EVICTED)).hasSize(1);
    assertThat(r.record().of(RunRecord.Kind.POD_KILLED)).isEmpty();
  }

  @Test
  void aRebalanceRecommendationIsOnlyAnEvent() {
    SimulationResult r = Simulation.run(interrupted("spot", InterruptionNotice.REBALANCE_RECOMMENDATION));
    assertThat(r.violations()).isEmpty();
    String node = firstNode(r);
    assertThat(events(r, node)).containsExactly("SpotRebalanceRecommendation: Spot rebalance recommendation was "
        + "triggered");
    assertThat(r.record().of(RunRecord.Kind.NODECLAIM_DELETING)).isEmpty();
    assertThat(r.record().of(RunRecord.Kind.POD_EVICTED)).isEmpty();
    assertThat(r.finalState().nodes().get(node)).isNotNull();
  }

  @Test
  void aSpotInterruptionOfAnOnDemandNodeDoesNotHappenAndTheRunSaysWhereAndWhy() {
    for (InterruptionNotice spotOnly : List.of(InterruptionNotice.SPOT_INTERRUPTION,
        InterruptionNotice.REBALANCE_RECOMMENDATION)) {
      SimulationResult r = Simulation.run(interrupted("on-demand", spotOnly));
      assertThat(r.violations()).isEmpty();
      assertThat(r.allExpectationsPassed()).isTrue();
      String node = firstNode(r);
      assertThat(r.record().of(RunRecord.Kind.SPOT_INTERRUPTION_WARNING)).isEmpty();
      assertThat(events(r, node)).noneMatch(e -> e.startsWith("Spot") || e.startsWith("TerminatingOnInterruption"));
      assertThat(r.record().of(RunRecord.Kind.POD_EVICTED)).isEmpty();
      assertThat(r.record().of(RunRecord.Kind.NODECLAIM_DELETING)).isEmpty();
      assertThat(r.record().of(RunRecord.Kind.SCENARIO)).anySatisfy(e -> assertThat(e.message()).isEqualTo(
          "step 2 The interruption: no " + spotOnly.describe() + " for " + node + ": it is on-demand capacity, "
              + "and EC2 sends this notice only to spot instances"));
    }
  }
}
