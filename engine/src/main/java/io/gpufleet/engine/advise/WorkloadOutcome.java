package io.gpufleet.engine.advise;

import java.util.OptionalDouble;

/**
 * What a workload's replicas get under an option: the worst replica's p50 and p99 (infinite when
 * it cannot keep up), against its objective.
 */
public record WorkloadOutcome(String workload, int replicas, double p50Ms, double p99Ms, OptionalDouble sloP99Ms,
    boolean stable) {

  /** Stable, and within the objective when there is one. */
  public boolean sloMet() {
    return stable && (sloP99Ms.isEmpty() || p99Ms <= sloP99Ms.getAsDouble());
  }
}
