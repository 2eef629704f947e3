package io.gpufleet.scenario;

import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.sim.scenario.Scenario;
import java.util.List;

/**
 * A scenario file as read: the simulator's scenario, its description, its steps (groups of
 * timeline actions with a title and an explanation), and the warnings met while reading it.
 */
public record ScenarioFile(Scenario scenario, String description, List<Step> steps, List<ManifestProblem> warnings) {
  public ScenarioFile {
    steps = List.copyOf(steps);
    warnings = List.copyOf(warnings);
  }

  /** The same scenario under another seed (a multi-seed batch): every random stream of the run derives from it. */
  public ScenarioFile withSeed(long seed) {
    Scenario s = scenario;
    return new ScenarioFile(new Scenario(s.name(), s.start(), seed, s.catalog(), s.objects(), s.devicePlugin(),
        s.settings(), s.autoscaler(), s.timeline(), s.namespaces(), s.reservations()), description, steps, warnings);
  }
}
