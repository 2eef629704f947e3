package io.gpufleet.sim;

import io.gpufleet.sim.controller.Runtime;
import io.gpufleet.sim.scenario.Scenario;

/**
 * Runs scenarios: the same scenario and seed give the same result, event for event.
 *
 * <pre>{@code SimulationResult r = Simulation.run(scenario, ProgressListener.NONE);}</pre>
 */
public final class Simulation {
  private Simulation() {}

  public static SimulationResult run(Scenario scenario) {
    return run(scenario, ProgressListener.NONE);
  }

  public static SimulationResult run(Scenario scenario, ProgressListener progress) {
    return new Runtime(scenario).listening(progress).run(progress);
  }

  /** Runs the scenario and hands {@code images} the cluster after every event that changed it. */
  public static SimulationResult run(Scenario scenario, ProgressListener progress, ImageListener images) {
    return new Runtime(scenario).listening(progress).watchingImages(images).run(progress);
  }

  /** Runs the scenario with {@code observer} wrapped around the handling of each event. */
  public static SimulationResult runObserved(Scenario scenario, EventObserver observer) {
    return new Runtime(scenario).observing(observer).run(ProgressListener.NONE);
  }
}
