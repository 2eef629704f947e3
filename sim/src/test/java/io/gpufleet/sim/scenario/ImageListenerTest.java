package io.gpufleet.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.ImageListener;
import io.gpufleet.sim.ProgressListener;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A viewer that watches the images sees every change, in order, and does not change the run. */
class ImageListenerTest {

  @Test
  void everyChangedImageComesInOrderAndTheLastIsTheFinalCluster() {
    List<ImageListener.Image> images = new ArrayList<>();
    SimulationResult watched = Simulation.run(DeterminismTest.busy(7), ProgressListener.NONE, images::add);

    assertThat(images).hasSizeGreaterThan(10);
    for (int i = 1; i < images.size(); i++) {
      ImageListener.Image before = images.get(i - 1);
      ImageListener.Image after = images.get(i);
      assertThat(after.state().version()).isGreaterThan(before.state().version());
      assertThat(after.time()).isAfterOrEqualTo(before.time());
      assertThat(after.recordEntries()).isGreaterThanOrEqualTo(before.recordEntries());
    }
    assertThat(images.getLast().state()).isSameAs(watched.finalState());
    assertThat(images.getFirst().time()).isEqualTo(watched.start());
    // Watching changes nothing: the same record as a run nobody watched.
    assertThat(watched.record()).isEqualTo(Simulation.run(DeterminismTest.busy(7)).record());
  }
}
