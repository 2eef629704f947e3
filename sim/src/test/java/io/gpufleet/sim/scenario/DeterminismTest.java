package io.gpufleet.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.Labels;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.testing.Objects;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeterminismTest {

  static Scenario busy(long seed) {
    return Scenario.builder("busy").seed(seed)
        .settings(SimulationSettings.DEFAULTS.withSpotInterruptionsPerHour(0.5))
        .object(ClusterObject.of(Objects.gpuPool("gpu", List.of("g5", "g6"))))
        .object(ClusterObject.of(Objects.inference("a", 3, 1, Labels.EMPTY)))
        .object(ClusterObject.of(Objects.inference("b", 2, 2, Labels.EMPTY)))
        .then(new ScenarioAction.Wait(Duration.ofHours(2)))
        .then(new ScenarioAction.Scale("a", 6))
        .then(new ScenarioAction.Wait(Duration.ofHours(2)))
        .then(new ScenarioAction.Scale("a", 1))
        .then(new ScenarioAction.Wait(Duration.ofHours(2)))
        .build();
  }

  @Test
  void theSameSeedGivesTheSameRunEventForEvent() {
    SimulationResult first = Simulation.run(busy(7));
    SimulationResult second = Simulation.run(busy(7));
    assertThat(second.record()).isEqualTo(first.record());
    assertThat(second.metrics()).isEqualTo(first.metrics());
    assertThat(second.events()).isEqualTo(first.events());
    assertThat(first.record().entries().size()).isGreaterThan(100);
  }

  @Test
  void anotherSeedDrawsOtherNamesAndInterruptions() {
    assertThat(Simulation.run(busy(8)).record()).isNotEqualTo(Simulation.run(busy(7)).record());
  }
}
