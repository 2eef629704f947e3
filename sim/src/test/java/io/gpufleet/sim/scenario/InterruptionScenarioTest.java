package io.gpufleet.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.metrics.ServiceMetrics;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.testing.Objects;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class InterruptionScenarioTest {

  static Scenario spotService(int replicas) {
    var pool = Objects.withRequirement(Objects.gpuPool("gpu", List.of("g5", "g6"), "spot"),
        NodePoolRequirement.in("karpenter.k8s.aws/instance-gpu-count", "1"));
    var llm = Objects.withGrace(Objects.inference("llm", replicas, 1,
        Labels.of("gpufleet.io/requests-per-second", "20", "gpufleet.io/request-duration", "2s")), 30);
    return Scenario.builder("spot interruption, " + replicas + " replica(s)")
        .settings(SimulationSettings.DEFAULTS.withInvariants(SimulationSettings.InvariantMode.FULL))
        .object(ClusterObject.of(pool))
        .object(ClusterObject.of(llm))
        .object(ClusterObject.of(Objects.minAvailable("llm-pdb", "llm", 1)))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, replicas),
            Duration.ofMinutes(15)))
        .then(ScenarioAction.Interrupt.spot(NodeRef.hosting("llm", 0)))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(15)))
        .then(new ScenarioAction.Expect("the service is whole again", Condition.readyPods("llm", Comparison.EQ,
            replicas)))
        .build();
  }

  @Test
  void twoReplicasWithAPdbDrainWithinTheWarningAndNeverDropBelowOne() {
    SimulationResult r = Simulation.run(spotService(2));
    assertThat(r.violations()).isEmpty();
    assertThat(r.allExpectationsPassed()).as(r.expectations().toString()).isTrue();
    Instant warning = r.record().of(RunRecord.Kind.SPOT_INTERRUPTION_WARNING).getFirst().time();
    // EC2 takes the instance back two minutes after the warning; Karpenter finished first.
    Instant reclaimed = warning.plus(Duration.ofMinutes(2));
    String node = r.record().of(RunRecord.Kind.SPOT_INTERRUPTION_WARNING).getFirst().subject();
    assertThat(r.record().about(node).stream().filter(e -> e.kind() == RunRecord.Kind.NODE_TERMINATED))
        .singleElement().satisfies(e -> assertThat(e.time()).isBefore(reclaimed));
    var evicted = r.record().of(RunRecord.Kind.POD_EVICTED);
    assertThat(evicted).singleElement().satisfies(e -> assertThat(e.time()).isBefore(reclaimed));
    String pod = evicted.getFirst().subject();
    assertThat(r.record().about(pod).stream().filter(e -> e.kind() == RunRecord.Kind.POD_EXITED))
        .singleElement().satisfies(e -> assertThat(e.time()).isBefore(reclaimed));
    assertThat(r.record().of(RunRecord.Kind.POD_KILLED)).isEmpty();
    ServiceMetrics m = r.metrics().service(new ObjectRef("Deployment", "default", "llm")).orElseThrow();
    assertThat(m.minReady()).hasValue(1);
    assertThat(m.outageSeconds()).isZero();
    assertThat(m.trafficModelled()).isTrue();
    assertThat(m.lostRequests()).hasValue(0.0);
    assertThat(r.metrics().disruptionsByReason()).containsEntry("Interrupted", 1);
    // The replacement was launched right after the warning, not after the reclaim.
    assertThat(r.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED).get(2).time()).isBefore(reclaimed);
  }

  @Test
  void aSingleReplicaShowsTheOutageInTheMetrics() {
    SimulationResult r = Simulation.run(spotService(1));
    assertThat(r.violations()).isEmpty();
    assertThat(r.allExpectationsPassed()).as(r.expectations().toString()).isTrue();
    ServiceMetrics m = r.metrics().service(new ObjectRef("Deployment", "default", "llm")).orElseThrow();
    // The PDB (minAvailable 1 of 1) refuses the eviction, so EC2 kills the pod at the reclaim.
    assertThat(r.record().of(RunRecord.Kind.POD_EVICTED)).isEmpty();
    assertThat(r.record().of(RunRecord.Kind.POD_KILLED)).hasSize(1);
    assertThat(m.podsKilled()).isEqualTo(1);
    assertThat(m.minReady()).hasValue(0);
    assertThat(m.outageSeconds()).isGreaterThan(60);
    assertThat(m.lostRequests().orElseThrow()).isGreaterThan(m.outageSeconds() * 20 - 1);
    assertThat(r.metrics().series("ready_pods{workload=Deployment/default/llm}").orElseThrow().min()).isZero();
  }

  /** Two replicas of a service whose traffic is not modelled, with this grace and pod annotations. */
  static Scenario quietService(long grace, Labels podAnnotations) {
    var pool = Objects.withRequirement(Objects.gpuPool("gpu", List.of("g5", "g6"), "spot"),
        NodePoolRequirement.in("karpenter.k8s.aws/instance-gpu-count", "1"));
    var svc = Objects.withPodAnnotations(Objects.withGrace(Objects.inference("svc", 2, 1, Labels.EMPTY), grace),
        podAnnotations);
    return Scenario.builder("spot interruption, grace " + grace + "s")
        .settings(SimulationSettings.DEFAULTS.withInvariants(SimulationSettings.InvariantMode.FULL))
        .object(ClusterObject.of(pool))
        .object(ClusterObject.of(svc))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("svc", Comparison.EQ, 2), Duration.ofMinutes(15)))
        .then(ScenarioAction.Interrupt.spot(NodeRef.hosting("svc", 0)))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(15)))
        .build();
  }

  /** When the record first says {@code kind} about {@code subject}. */
  static Instant at(SimulationResult r, RunRecord.Kind kind, String subject) {
    return r.record().about(subject).stream().filter(e -> e.kind() == kind).findFirst().orElseThrow(
        () -> new AssertionError("no " + kind + " for " + subject)).time();
  }

  @Test
  void aPodThatDeclaresNothingUsesItsGracePeriodAndTheInstanceGoesWhenItHasExited() {
    SimulationResult r = Simulation.run(quietService(60, Labels.EMPTY));
    assertThat(r.violations()).isEmpty();
    RunRecord.Entry warning = r.record().of(RunRecord.Kind.SPOT_INTERRUPTION_WARNING).getFirst();
    RunRecord.Entry evicted = r.record().of(RunRecord.Kind.POD_EVICTED).getFirst();
    // SIGTERM at the eviction; the pod takes its whole 60 s grace, then the drained instance goes,
    // before EC2's reclaim two minutes after the warning.
    Instant exited = at(r, RunRecord.Kind.POD_EXITED, evicted.subject());
    assertThat(Duration.between(evicted.time(), exited)).isEqualTo(Duration.ofSeconds(60));
    Instant terminated = at(r, RunRecord.Kind.NODE_TERMINATED, warning.subject());
    assertThat(terminated).isAfterOrEqualTo(exited).isBefore(warning.time().plus(Duration.ofMinutes(2)));
    assertThat(r.record().of(RunRecord.Kind.POD_KILLED)).isEmpty();
    // Traffic is not modelled, so no requests are counted lost or kept.
    ServiceMetrics m = r.metrics().service(new ObjectRef("Deployment", "default", "svc")).orElseThrow();
    assertThat(m.trafficModelled()).isFalse();
    assertThat(m.lostRequests()).isEmpty();
  }

  @Test
  void aDeclaredShutdownDurationShortensTheExit() {
    SimulationResult r = Simulation.run(quietService(60, Labels.of("gpufleet.io/shutdown-duration", "10s")));
    RunRecord.Entry evicted = r.record().of(RunRecord.Kind.POD_EVICTED).getFirst();
    assertThat(Duration.between(evicted.time(), at(r, RunRecord.Kind.POD_EXITED, evicted.subject())))
        .isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void aShutdownLongerThanTheWarningIsCutShortByTheReclaim() {
    // Five minutes of grace: EC2 does not wait; the pod dies with the instance at the reclaim.
    SimulationResult r = Simulation.run(quietService(300, Labels.EMPTY));
    assertThat(r.violations()).isEmpty();
    RunRecord.Entry warning = r.record().of(RunRecord.Kind.SPOT_INTERRUPTION_WARNING).getFirst();
    Instant reclaimed = warning.time().plus(Duration.ofMinutes(2));
    String evicted = r.record().of(RunRecord.Kind.POD_EVICTED).getFirst().subject();
    assertThat(r.record().of(RunRecord.Kind.POD_KILLED)).singleElement().satisfies(e -> {
      assertThat(e.subject()).isEqualTo(evicted);
      assertThat(e.time()).isEqualTo(reclaimed);
    });
    assertThat(at(r, RunRecord.Kind.NODE_TERMINATED, warning.subject())).isEqualTo(reclaimed);
  }
}
