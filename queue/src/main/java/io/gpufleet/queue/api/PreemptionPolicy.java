package io.gpufleet.queue.api;

/**
 * A ClusterQueue's preemption settings ({@code spec.preemption}): {@code reclaimWithinCohort},
 * {@code borrowWithinCohort.policy} and {@code withinClusterQueue}, each Never by default.
 */
public record PreemptionPolicy(Policy reclaimWithinCohort, Policy borrowWithinCohort, Policy withinClusterQueue) {

  public static final PreemptionPolicy NEVER = new PreemptionPolicy(Policy.NEVER, Policy.NEVER, Policy.NEVER);

  public enum Policy {
    NEVER("Never"),
    LOWER_PRIORITY("LowerPriority"),
    LOWER_OR_NEWER_EQUAL_PRIORITY("LowerOrNewerEqualPriority"),
    ANY("Any");

    private final String wire;

    Policy(String wire) {
      this.wire = wire;
    }

    public String wire() {
      return wire;
    }
  }
}
