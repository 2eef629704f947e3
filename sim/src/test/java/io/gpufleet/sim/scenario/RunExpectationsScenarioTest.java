package io.gpufleet.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.testing.Objects;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Expectations over what a run has done (events, disruptions, evictions, cost, NodeClaims),
 * conditions watched throughout a window or never to hold, and capacity errors a scenario injects.
 */
class RunExpectationsScenarioTest {

  static final SimulationSettings FULL = SimulationSettings.DEFAULTS
      .withInvariants(SimulationSettings.InvariantMode.FULL);

  static ExpectationOutcome outcome(SimulationResult r, String description) {
    return r.expectations().stream().filter(e -> e.description().equals(description)).findFirst().orElseThrow(
        () -> new AssertionError("no outcome " + description + " in " + r.expectations()));
  }

  static Condition claims(Comparison c, int n) {
    return new Condition.NodeClaimCount(LabelSelector.EVERYTHING, c, n);
  }

  static Scenario.Builder spotService(int replicas) {
    var pool = Objects.withRequirement(Objects.gpuPool("gpu", List.of("g5", "g6"), "spot"),
        NodePoolRequirement.in("karpenter.k8s.aws/instance-gpu-count", "1"));
    return Scenario.builder("spot service of " + replicas).settings(FULL)
        .object(ClusterObject.of(pool))
        .object(ClusterObject.of(Objects.withGrace(Objects.inference("llm", replicas, 1, Labels.EMPTY), 30)))
        .object(ClusterObject.of(Objects.minAvailable("llm-pdb", "llm", 1)))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, replicas),
            Duration.ofMinutes(15)))
        .then(new ScenarioAction.Watch("never without a Ready pod", Condition.readyPods("llm", Comparison.LT, 1),
            true, Optional.of(Duration.ofMinutes(20))))
        .then(ScenarioAction.Interrupt.spot(NodeRef.hosting("llm", 0)))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(15)));
  }

  @Test
  void aSpotInterruptionIsCountedAsOneDisruptionOneEvictionAndItsEvents() {
    SimulationResult r = Simulation.run(spotService(2)
        .then(new ScenarioAction.Expect("one claim interrupted", new Condition.Disruptions(Optional.empty(),
            Optional.of("Interrupted"), Comparison.EQ, 1)))
        .then(new ScenarioAction.Expect("no command behind it", new Condition.Disruptions(
            Optional.of("SingleNodeConsolidation"), Optional.empty(), Comparison.EQ, 0)))
        .then(new ScenarioAction.Expect("one pod evicted for it", new Condition.Evictions(Optional.of("Interrupted"),
            Comparison.EQ, 1)))
        .then(new ScenarioAction.Expect("none for anything else", new Condition.Evictions(Optional.of("Drifted"),
            Comparison.EQ, 0)))
        .then(new ScenarioAction.Expect("one warning", new Condition.Events(Optional.of(
            RunRecord.Kind.SPOT_INTERRUPTION_WARNING), Optional.empty(), Optional.empty(), Comparison.EQ, 1)))
        .then(new ScenarioAction.Expect("Karpenter's SpotInterrupted event", new Condition.Events(Optional.empty(),
            Optional.of("SpotInterrupted"), Optional.empty(), Comparison.EQ, 1)))
        .then(new ScenarioAction.Expect("three claims launched in all, two left", claims(Comparison.EQ, 2)))
        .build());
    assertThat(r.violations()).isEmpty();
    assertThat(r.allExpectationsPassed()).as(r.expectations().toString()).isTrue();
    // The counts agree with the record they summarise.
    assertThat(r.record().of(RunRecord.Kind.POD_EVICTED)).hasSize(1);
    assertThat(r.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED)).hasSize(3);
    assertThat(outcome(r, "never without a Ready pod").detail()).isEqualTo("never held for 20m");
    // The run lasted until the 20-minute window closed, although the timeline's last wait ended sooner.
    assertThat(r.end()).isAfterOrEqualTo(outcome(r, "never without a Ready pod").time());
  }

  @Test
  void aSingleReplicaBreaksTheNeverExpectationAtTheEventThatLeftItWithoutAReadyPod() {
    SimulationResult r = Simulation.run(spotService(1).build());
    ExpectationOutcome o = outcome(r, "never without a Ready pod");
    assertThat(o.passed()).isFalse();
    assertThat(o.detail()).startsWith("held after ").endsWith("0 ready");
    // At the first moment the service had no Ready pod: the pod's kill at the reclaim.
    var killed = r.record().of(RunRecord.Kind.POD_KILLED);
    assertThat(killed).isNotEmpty();
    assertThat(o.time()).isBeforeOrEqualTo(killed.getFirst().time());
    assertThat(r.metrics().service(new ObjectRef("Deployment", "default", "llm")).orElseThrow().minReady()).hasValue(0);
  }

  @Test
  void throughoutFailsAtTheFirstEventThatBreaksItAndOtherwisePassesWhenTheRunEnds() {
    var pool = Objects.gpuPool("gpu", List.of("g6"), "on-demand");
    SimulationResult r = Simulation.run(Scenario.builder("throughout").settings(FULL)
        .object(ClusterObject.of(pool))
        .then(new ScenarioAction.Watch("no pod ever pending", Condition.pendingPods(Comparison.EQ, 0), false,
            Optional.empty()))
        .then(new ScenarioAction.Watch("never more than one node", Condition.nodeCount(LabelSelector.EVERYTHING,
            Comparison.GT, 1), true, Optional.empty()))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(1)))
        .then(new ScenarioAction.Apply(List.of(ClusterObject.of(Objects.inference("llm", 1, 1, Labels.EMPTY)))))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(20)))
        .build());
    ExpectationOutcome pending = outcome(r, "no pod ever pending");
    assertThat(pending.passed()).isFalse();
    assertThat(pending.time()).isEqualTo(r.start().plus(Duration.ofMinutes(1)));
    assertThat(pending.detail()).isEqualTo("broken after 1m: 1 pending");
    ExpectationOutcome nodes = outcome(r, "never more than one node");
    assertThat(nodes.passed()).isTrue();
    assertThat(nodes.detail()).isEqualTo("never held until the run ended, 21m after it started");
  }

  @Test
  void costSoFarIsTheBillOfTheRunningNodeBoundedByItsPriceAndTheTimeItRan() {
    var pool = Objects.withPolicy(Objects.gpuPool("gpu", List.of("g6"), "on-demand"), ConsolidationPolicy.WHEN_EMPTY,
        Duration.ofMinutes(10));
    // Which type the provisioner buys comes from a first run; its price from the catalogue.
    SimulationResult probe = Simulation.run(Scenario.builder("probe").settings(FULL).object(ClusterObject.of(pool))
        .object(ClusterObject.of(Objects.inference("llm", 1, 1, Labels.EMPTY)))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 1), Duration.ofMinutes(15)))
        .build());
    String type = probe.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED).getFirst().message().split(" ")[0];
    double price = InstanceCatalog.builtIn().find(type).orElseThrow().onDemandPrice();
    SimulationResult r = Simulation.run(Scenario.builder("cost").settings(FULL).object(ClusterObject.of(pool))
        .then(new ScenarioAction.Expect("nothing billed yet", new Condition.Cost(Comparison.EQ, 0)))
        .then(new ScenarioAction.Apply(List.of(ClusterObject.of(Objects.inference("llm", 1, 1, Labels.EMPTY)))))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 1), Duration.ofMinutes(15)))
        .then(new ScenarioAction.Wait(Duration.ofHours(1)))
        // Launched before the wait began and at most the wait-until's 15 minutes before it.
        .then(new ScenarioAction.Expect("at least an hour billed", new Condition.Cost(Comparison.GE, price)))
        .then(new ScenarioAction.Expect("at most an hour and a quarter", new Condition.Cost(Comparison.LE,
            price * 1.25)))
        .then(new ScenarioAction.Expect("one NodeClaim", claims(Comparison.EQ, 1)))
        .then(new ScenarioAction.Scale("llm", 0))
        .then(new ScenarioAction.WaitUntil(claims(Comparison.EQ, 0), Duration.ofMinutes(30)))
        .then(new ScenarioAction.Expect("deleted as empty by emptiness", new Condition.Disruptions(
            Optional.of("Emptiness"), Optional.of("Empty"), Comparison.EQ, 1)))
        .then(new ScenarioAction.Wait(Duration.ofHours(1)))
        .then(new ScenarioAction.Expect("nothing billed since", new Condition.Cost(Comparison.LE, price * 1.75)))
        .build());
    assertThat(r.allExpectationsPassed()).as(r.expectations().toString()).isTrue();
    // The final bill agrees with the running figure the expectations read.
    assertThat(r.metrics().totalCost()).isBetween(price, price * 1.75);
  }

  /**
   * A consolidation replacement that fails for insufficient capacity is tried again once the
   * offering may be back: Karpenter's consolidation state resets at least every five minutes
   * ({@code ConsolidationState} in {@code K:pkg/controllers/state/cluster.go}), so a quiet cluster is
   * reconsidered although nothing it watches changed.
   */
  @Test
  void aReplacementRefusedForCapacityIsTriedAgainOnceTheCapacityIsBack() {
    var pool = Objects.withPolicy(Objects.gpuPool("gpu", List.of("g6"), "on-demand"),
        ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED, Duration.ZERO);
    // The cheapest fit has no capacity for 20 minutes: the pod lands on the next size up, and the
    // replacement single-node consolidation proposes fails, marking g6.xlarge unavailable.
    SimulationResult r = Simulation.run(Scenario.builder("ice then back").settings(FULL).object(ClusterObject.of(pool))
        .then(new ScenarioAction.InsufficientCapacity("g6.xlarge", Optional.empty(), Optional.empty(),
            Optional.of(Duration.ofMinutes(20))))
        .then(new ScenarioAction.Apply(List.of(ClusterObject.of(Objects.inference("llm", 1, 1, Labels.EMPTY)))))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 1), Duration.ofMinutes(15)))
        .then(new ScenarioAction.Wait(Duration.ofHours(2)))
        .then(new ScenarioAction.Expect("served", Condition.readyPods("llm", Comparison.EQ, 1)))
        .then(new ScenarioAction.Expect("one NodeClaim stands", claims(Comparison.EQ, 1)))
        .build());
    assertThat(r.violations()).isEmpty();
    assertThat(r.allExpectationsPassed()).as(r.expectations().toString()).isTrue();
    var launched = r.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED);
    assertThat(launched.getFirst().message()).as(r.record().toString()).doesNotStartWith("g6.xlarge ");
    assertThat(launched.getLast().message()).as(r.record().toString()).startsWith("g6.xlarge ");
    Instant back = Scenario.DEFAULT_START.plus(Duration.ofMinutes(20));
    assertThat(launched.getLast().time()).isAfter(back).isBefore(back.plus(Duration.ofMinutes(10)));
  }

  @Test
  void anInsufficientCapacityErrorMakesKarpenterFallBackToAnotherOffering() {
    var pool = Objects.withRequirement(Objects.gpuPool("gpu", List.of("g5", "g6"), "on-demand"),
        NodePoolRequirement.in("karpenter.k8s.aws/instance-gpu-count", "1"));
    Scenario.Builder base = Scenario.builder("ice").settings(FULL).object(ClusterObject.of(pool));
    SimulationResult first = Simulation.run(base
        .then(new ScenarioAction.Apply(List.of(ClusterObject.of(Objects.inference("llm", 1, 1, Labels.EMPTY)))))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 1), Duration.ofMinutes(15)))
        .build());
    String cheapest = first.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED).getFirst().message().split(" ")[0];

    SimulationResult r = Simulation.run(Scenario.builder("ice").settings(FULL).object(ClusterObject.of(pool))
        .then(new ScenarioAction.InsufficientCapacity(cheapest, Optional.empty(), Optional.empty(),
            Optional.of(Duration.ofMinutes(30))))
        .then(new ScenarioAction.Apply(List.of(ClusterObject.of(Objects.inference("llm", 1, 1, Labels.EMPTY)))))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 1), Duration.ofMinutes(15)))
        .then(new ScenarioAction.Expect("Karpenter said so", new Condition.Events(Optional.empty(),
            Optional.of("InsufficientCapacityError"), Optional.empty(), Comparison.GE, 1)))
        .then(new ScenarioAction.Expect("one NodeClaim stands", claims(Comparison.EQ, 1)))
        .build());
    assertThat(r.violations()).isEmpty();
    assertThat(r.allExpectationsPassed()).as(r.expectations().toString()).isTrue();
    var failed = r.record().of(RunRecord.Kind.NODECLAIM_LAUNCH_FAILED);
    assertThat(failed).isNotEmpty().allSatisfy(e -> assertThat(e.message()).startsWith(cheapest + " ")
        .contains("InsufficientInstanceCapacity: We currently do not have sufficient " + cheapest + " capacity"));
    // The offering is marked unavailable for three minutes, and the next round launches elsewhere.
    assertThat(r.record().of(RunRecord.Kind.OFFERING_UNAVAILABLE)).isNotEmpty()
        .allSatisfy(e -> assertThat(e.subject()).isEqualTo(cheapest));
    var launched = r.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED);
    assertThat(launched).singleElement().satisfies(e -> assertThat(e.message()).doesNotStartWith(cheapest + " "));
    assertThat(launched.getFirst().time()).isAfter(failed.getFirst().time());
  }
}
