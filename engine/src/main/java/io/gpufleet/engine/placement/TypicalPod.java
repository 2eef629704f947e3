package io.gpufleet.engine.placement;

import io.gpufleet.model.gpu.share.CardModelAllowList;

/**
 * One pod shape of the typical-pod distribution and its share of the distribution (0..1). Memory is
 * not part of it: the fragmentation measure looks at CPU and GPU only.
 */
public record TypicalPod(int milliCpu, int cards, int milliPerCard, CardModelAllowList models, double share) {

  public boolean isCpuOnly() {
    return cards == 0;
  }
}
