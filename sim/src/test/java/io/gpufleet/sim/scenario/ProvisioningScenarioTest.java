package io.gpufleet.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.Labels;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.testing.Objects;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProvisioningScenarioTest {

  static final Instant T0 = Scenario.DEFAULT_START;

  @Test
  void aPendingGpuPodGetsTheCheapestFittingTypeAndBindsOnlyOnceTheGpuRegisters() {
    Scenario s = Scenario.builder("one GPU pod")
        .settings(SimulationSettings.DEFAULTS.withInvariants(SimulationSettings.InvariantMode.FULL))
        .object(ClusterObject.of(Objects.gpuPool("gpu", List.of("g5", "g6"), "on-demand")))
        .object(ClusterObject.of(Objects.inference("llm", 1, 1, Labels.EMPTY)))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 1), Duration.ofMinutes(15)))
        .then(new ScenarioAction.Expect("one node", Condition.nodeCount(
            io.gpufleet.model.label.LabelSelector.EVERYTHING, Comparison.EQ, 1)))
        .build();
    SimulationResult r = Simulation.run(s);
    assertThat(r.violations()).isEmpty();
    assertThat(r.allExpectationsPassed()).as(r.expectations().toString()).isTrue();

    var launched = r.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED);
    assertThat(launched).singleElement().satisfies(e -> {
      assertThat(e.message()).startsWith("g6.xlarge on-demand");
      // The batch window closes one idle second after the pod appears (reference §1.4).
      assertThat(e.time()).isEqualTo(T0.plusSeconds(1));
    });
    String claim = launched.getFirst().subject();
    Instant initialized = r.record().of(RunRecord.Kind.NODECLAIM_INITIALIZED).getFirst().time();
    // Launch + 3 min to registration, + 30 s for the device plugin to register nvidia.com/gpu.
    assertThat(initialized).isEqualTo(T0.plusSeconds(1 + 180 + 30));
    var bound = r.record().of(RunRecord.Kind.POD_SCHEDULED).getFirst();
    assertThat(bound.message()).isEqualTo("bound to " + claim + " (the only feasible node)");
    assertThat(bound.time()).isEqualTo(initialized);
    assertThat(bound.sequence()).isGreaterThan(r.record().of(RunRecord.Kind.NODECLAIM_INITIALIZED).getFirst()
        .sequence());
    // Before the plugin registered the node advertised no GPU and the pod stayed pending.
    assertThat(r.record().of(RunRecord.Kind.NODE_REGISTERED).getFirst().time()).isEqualTo(T0.plusSeconds(181));
    // Ready after the 30 s image pull.
    assertThat(r.record().of(RunRecord.Kind.POD_READY).getFirst().time()).isEqualTo(initialized.plusSeconds(30));
    assertThat(r.metrics().pendingTimes()).singleElement().satisfies(p ->
        assertThat(p.pending()).contains(Duration.ofSeconds(211)));
  }

  /**
   * A spot price is the on-demand price times the ratio, a double such as 0.6843199999999999 for
   * g6.xlarge at 0.85; the launch event writes it as money, not as that double.
   */
  @Test
  void aLaunchPrintsItsComputedSpotPriceAsMoney() {
    Scenario s = Scenario.builder("one spot GPU pod")
        .catalog(io.gpufleet.model.cloud.InstanceCatalog.builtIn(
            io.gpufleet.model.cloud.Pricing.DEFAULT.withSpotPriceRatio(0.85)))
        .object(ClusterObject.of(Objects.gpuPool("gpu", List.of("g6"), "spot")))
        .object(ClusterObject.of(Objects.inference("llm", 1, 1, Labels.EMPTY)))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 1), Duration.ofMinutes(15)))
        .build();
    var launched = Simulation.run(s).record().of(RunRecord.Kind.NODECLAIM_LAUNCHED);
    double price = 0.8048 * 0.85; // g6.xlarge on-demand in the built-in catalogue, times the ratio
    assertThat(String.valueOf(price)).as("the double the price is").hasSizeGreaterThan(10);
    assertThat(launched).singleElement().satisfies(e ->
        assertThat(e.message()).isEqualTo("g6.xlarge spot in us-east-1a at $0.68408/h"));
  }
}
