package io.gpufleet.engine.placement;

import io.gpufleet.model.gpu.share.GpuDemand;
import io.gpufleet.model.gpu.share.ShareRequest;

/**
 * A pod's request in the form the placement loop reads: CPU and memory, cards and milli-GPU per
 * card, the accepted models as a {@link CardModels} mask, and its GPU-clustering affinity. Pods with
 * equal shapes are interchangeable to every policy, which lets a replay cache scores per shape.
 *
 * @param affinity 0 for a CPU-only pod, 1 for a fraction of a card, {@code 1 + n} for n whole cards
 */
public record PodShape(int milliCpu, long memoryMib, int cards, int milliPerCard, long models, int affinity) {

  public PodShape {
    if (milliCpu < 0 || memoryMib < 0 || cards < 0 || milliPerCard < 0 || milliPerCard > GpuDemand.MILLI_PER_CARD) {
      throw new IllegalArgumentException("impossible pod shape: cpu " + milliCpu + "m, memory " + memoryMib
          + "Mi, " + cards + " x " + milliPerCard + " milli-GPU");
    }
    if ((cards == 0) != (milliPerCard == 0) || (cards > 1 && milliPerCard != GpuDemand.MILLI_PER_CARD)) {
      throw new IllegalArgumentException("a pod takes a fraction of one card or whole cards, not "
          + cards + " x " + milliPerCard + " milli-GPU");
    }
  }

  public static PodShape of(ShareRequest request, CardModels models) {
    GpuDemand gpu = request.gpu();
    if (request.milliCpu() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("CPU request too large: " + request.milliCpu() + "m");
    }
    int affinity = switch (gpu) {
      case GpuDemand.None none -> 0;
      case GpuDemand.Fraction fraction -> 1;
      case GpuDemand.Whole whole -> 1 + Math.min(whole.count(), 62);
    };
    return new PodShape((int) request.milliCpu(), request.memoryMib(), gpu.cards(), gpu.milliPerCard(),
        gpu.cards() == 0 ? CardModels.ANY : models.mask(request.models()), affinity);
  }

  public boolean isCpuOnly() {
    return cards == 0;
  }

  /** A share of one card (below 1000 milli-GPU), the case where the choice of card matters. */
  public boolean isFraction() {
    return cards == 1 && milliPerCard < GpuDemand.MILLI_PER_CARD;
  }

  public long totalMilli() {
    return (long) cards * milliPerCard;
  }
}
