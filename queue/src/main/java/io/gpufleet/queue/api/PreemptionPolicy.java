package io.gpufleet.queue.api;

import io.gpufleet.model.wire.WireEnum;

/**
 * A ClusterQueue's preemption settings ({@code spec.preemption}): {@code reclaimWithinCohort},
 * {@code borrowWithinCohort.policy} and {@code withinClusterQueue}, each Never by default.
 */
public record PreemptionPolicy(Policy reclaimWithinCohort, Policy borrowWithinCohort, Policy withinClusterQueue) {

  public static final PreemptionPolicy NEVER = new PreemptionPolicy(Policy.NEVER, Policy.NEVER, Policy.NEVER);

  public enum Policy implements WireEnum { NEVER, LOWER_PRIORITY, LOWER_OR_NEWER_EQUAL_PRIORITY, ANY }
}
