package io.gpufleet.queue.admission;

/**
 * How a flavor can take a request, worst first ({@code FlavorAssignmentMode}): NoFit (not within
 * the quota even if every workload were preempted), Preempt (possible given quotas, after
 * preempting or reclaiming), Fit (unused quota suffices).
 */
public enum FlavorAssignmentMode {
  NO_FIT("NoFit"),
  PREEMPT("Preempt"),
  FIT("Fit");

  private final String upstream;

  FlavorAssignmentMode(String upstream) {
    this.upstream = upstream;
  }

  @Override
  public String toString() {
    return upstream;
  }
}
