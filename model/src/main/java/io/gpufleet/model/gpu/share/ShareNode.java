package io.gpufleet.model.gpu.share;

import java.util.Objects;

/**
 * A node whose cards can be shared: allocatable CPU in milli-cores, memory in MiB, its cards (each
 * 1000 milli-GPU) and their model ("" for a node without GPUs).
 */
public record ShareNode(String name, long milliCpu, long memoryMib, int cards, String cardModel) {

  public ShareNode {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(cardModel, "cardModel");
    if (milliCpu < 0 || memoryMib < 0 || cards < 0) {
      throw new IllegalArgumentException("node " + name + " has negative capacity");
    }
    if (cards > 64) {
      throw new IllegalArgumentException("node " + name + " has " + cards + " cards; at most 64 are modelled");
    }
  }

  public long milliGpu() {
    return (long) cards * GpuDemand.MILLI_PER_CARD;
  }
}
