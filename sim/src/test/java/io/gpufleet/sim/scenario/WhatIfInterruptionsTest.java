package io.gpufleet.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.testing.Objects;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The comparison users run the twin for: the same cluster, seed and spot interruption rate under
 * WhenEmpty and under Karpenter's default WhenEmptyOrUnderutilized. The default policy replaces a
 * half-used node (drawing a command id and a replacement's name, moving a pod) where WhenEmpty
 * does not; claims both runs launch afterwards must still see the same interruptions.
 */
class WhatIfInterruptionsTest {

  /**
   * An LLM service on on-demand GPUs that scales from two replicas to one (the half-used node the
   * policies treat differently), then a training Deployment on a spot pool, interrupted at the given
   * rate; both NodePools use the policy under comparison.
   */
  static Scenario whatIf(ConsolidationPolicy policy) {
    var inference = Objects.withPolicy(Objects.gpuPool("inference", List.of("g5", "g6"), "on-demand"), policy,
        Duration.ofMinutes(5));
    var batch = Objects.withPolicy(Objects.gpuPool("batch", List.of("g5", "g6"), "spot"), policy,
        Duration.ofMinutes(5));
    return Scenario.builder("what-if " + policy).seed(11)
        // A stress rate, far above EC2's usual, so that the runs see interruptions within hours.
        .settings(SimulationSettings.DEFAULTS.withSpotInterruptionsPerHour(0.2)
            .withInvariants(SimulationSettings.InvariantMode.FULL))
        .object(ClusterObject.of(inference))
        .object(ClusterObject.of(batch))
        .object(ClusterObject.of(on(Objects.inference("llm", 2, 1, Labels.EMPTY), "inference")))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 2), Duration.ofMinutes(15)))
        .then(new ScenarioAction.Scale("llm", 1))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(30)))
        .then(new ScenarioAction.Apply(List.of(ClusterObject.of(on(Objects.inference("train", 1, 4, Labels.EMPTY),
            "batch")))))
        .then(new ScenarioAction.Wait(Duration.ofHours(12)))
        .build();
  }

  /** The Deployment's pods select the NodePool. */
  static Workload.Deployment on(Workload.Deployment d, String pool) {
    var t = d.template();
    return new Workload.Deployment(d.meta(), d.replicas(), d.selector(), new PodTemplate(t.labels(), t.annotations(),
        t.spec().withNodeSelector(Labels.of("karpenter.sh/nodepool", pool))), d.maxSurge(), d.maxUnavailable());
  }

  /** A launched claim as the record tells it: when, what, and when EC2 warned it (if it did). */
  record Launch(Instant at, String name, String what, Instant warned) {}

  static List<Launch> launches(SimulationResult r) {
    Map<String, Instant> warned = new LinkedHashMap<>();
    for (RunRecord.Entry e : r.record().of(RunRecord.Kind.SPOT_INTERRUPTION_WARNING)) {
      warned.putIfAbsent(e.subject(), e.time());
    }
    List<Launch> out = new ArrayList<>();
    for (RunRecord.Entry e : r.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED)) {
      out.add(new Launch(e.time(), e.subject(), e.message(), warned.get(e.subject())));
    }
    return out;
  }

  @Test
  void whenEmptyAndTheDefaultPolicySeeTheSameInterruptionsForTheClaimsBothLaunch() {
    SimulationResult empty = Simulation.run(whatIf(ConsolidationPolicy.WHEN_EMPTY));
    SimulationResult dflt = Simulation.run(whatIf(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED));
    assertThat(empty.violations()).isEmpty();
    assertThat(dflt.violations()).isEmpty();
    // The policies really differ: only the default one consolidates the half-used node.
    assertThat(dflt.metrics().disruptionsByReason()).containsKey("Underutilized");
    assertThat(empty.metrics().disruptionsByReason()).doesNotContainKey("Underutilized");
    Instant diverged = dflt.record().of(RunRecord.Kind.DISRUPTION_EXECUTED).getFirst().time();

    // The same claim in both runs: the same name, launched at the same time with the same offering.
    List<Launch> a = launches(empty);
    List<Launch> b = launches(dflt);
    List<Launch[]> common = new ArrayList<>();
    for (Launch x : a) {
      b.stream().filter(y -> y.name().equals(x.name()) && y.at().equals(x.at()) && y.what().equals(x.what()))
          .findFirst().ifPresent(y -> common.add(new Launch[] {x, y}));
    }
    String both = "WhenEmpty " + a + "\ndefault " + b;
    // Claims launched after the runs diverged are still the same claims, warned at the same times.
    assertThat(common).as(both).anySatisfy(p -> {
      assertThat(p[0].at()).isAfter(diverged);
      assertThat(p[0].warned()).isNotNull().isEqualTo(p[1].warned());
    });
    // Every interruption, claim and time, is the same in both runs.
    assertThat(dflt.record().of(RunRecord.Kind.SPOT_INTERRUPTION_WARNING).stream().map(e -> e.time() + " " + e.subject()))
        .as(both).containsExactlyElementsOf(empty.record().of(RunRecord.Kind.SPOT_INTERRUPTION_WARNING).stream()
            .map(e -> e.time() + " " + e.subject()).toList());

  }
}
