package io.gpufleet.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.EventObserver;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.kernel.Event;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** An observer is wrapped around every event the run handles, and observing changes nothing. */
class EventObserverTest {

  @Test
  void theObserverSeesEveryEventOnceAroundItsHandlingAndTheRunIsUnchanged() {
    Map<String, Long> kinds = new TreeMap<>();
    int[] depth = {0};
    EventObserver counting = (event, handling) -> {
      assertThat(depth[0]).as("no event is handled inside another").isZero();
      depth[0]++;
      handling.run();
      depth[0]--;
      kinds.merge(event.getClass().getSimpleName(), 1L, Long::sum);
    };
    SimulationResult observed = Simulation.runObserved(DeterminismTest.busy(7), counting);

    assertThat(kinds.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(observed.events());
    assertThat(kinds).containsKey(Event.DisruptionPoll.class.getSimpleName()).containsKey(
        Event.ScheduleCycle.class.getSimpleName());
    assertThat(observed.record()).isEqualTo(Simulation.run(DeterminismTest.busy(7)).record());
  }
}
