package io.gpufleet.sim.replay;

import io.gpufleet.engine.placement.TypicalPods;

/**
 * The knobs of the FGD paper's replay: the workload is tuned to {@code tunePercent} of the cluster's
 * GPU capacity, and the typical pods are the shapes covering {@code popularityPercent} of the trace.
 */
public record ReplayProtocol(int tunePercent, int popularityPercent) {

  /** As the paper ran it: 130% arrived GPU demand, typical pods cut at 95%. */
  public static final ReplayProtocol PAPER = new ReplayProtocol(130, TypicalPods.PAPER_POPULARITY_PERCENT);

  public ReplayProtocol {
    if (tunePercent <= 0) {
      throw new IllegalArgumentException("tune percent must be positive: " + tunePercent);
    }
    if (popularityPercent <= 0 || popularityPercent > 100) {
      throw new IllegalArgumentException("popularity percent is 1..100: " + popularityPercent);
    }
  }

  /** The arrived GPU demand the tuning aims at, in milli-GPU. */
  public long targetMilli(long capacityMilli) {
    return capacityMilli * tunePercent / 100;
  }
}
