package io.gpufleet.queue.admission;

import io.gpufleet.model.wire.WireEnum;

/**
 * How a flavor can take a request, worst first ({@code FlavorAssignmentMode}): NoFit (not within
 * the quota even if every workload were preempted), Preempt (possible given quotas, after
 * preempting or reclaiming), Fit (unused quota suffices).
 */
public enum FlavorAssignmentMode implements WireEnum {
  NO_FIT,
  PREEMPT,
  FIT;

  @Override
  public String toString() {
    return wireName();
  }
}
