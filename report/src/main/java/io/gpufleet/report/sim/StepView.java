package io.gpufleet.report.sim;

import io.gpufleet.sim.Checkpoint;
import java.util.List;

/**
 * One step of a scenario as a report shows it: its heading, what it does, why (for
 * {@code --explain}), and the checkpoints the simulator kept in it: any it asked to show part-way,
 * then the one at its end. {@code from} is the run-record index where the step began.
 */
public record StepView(String heading, String description, String explanation, List<Checkpoint> checkpoints,
    int from) {

  public StepView {
    checkpoints = List.copyOf(checkpoints);
    if (checkpoints.isEmpty()) {
      throw new IllegalArgumentException("a step ends in a checkpoint");
    }
  }

  public Checkpoint end() {
    return checkpoints.getLast();
  }
}
