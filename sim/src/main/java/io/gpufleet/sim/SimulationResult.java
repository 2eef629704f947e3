package io.gpufleet.sim;

import io.gpufleet.sim.invariant.InvariantViolation;
import io.gpufleet.sim.metrics.Metrics;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.scenario.ExpectationOutcome;
import io.gpufleet.sim.state.ClusterState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What a run produced: its span of virtual time and how many events it took, the run record, the
 * metrics, every expectation's outcome, any invariant violations, and the final cluster image.
 */
public record SimulationResult(String scenario, Instant start, Instant end, long events, RunRecord record,
    Metrics metrics, List<ExpectationOutcome> expectations, List<InvariantViolation> violations,
    ClusterState finalState, List<Checkpoint> checkpoints) {

  public SimulationResult {
    expectations = List.copyOf(expectations);
    checkpoints = List.copyOf(checkpoints);
    violations = List.copyOf(violations);
  }

  public Duration simulated() {
    return Duration.between(start, end);
  }

  public boolean allExpectationsPassed() {
    return expectations.stream().allMatch(ExpectationOutcome::passed);
  }
}
