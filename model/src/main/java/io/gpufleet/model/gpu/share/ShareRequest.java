package io.gpufleet.model.gpu.share;

import java.util.Objects;

/**
 * What one pod asks of a node whose GPUs can be shared: CPU in milli-cores, memory in MiB, its GPU
 * demand and the GPU models it accepts. Fit is per card: a fraction must fit on one card's free
 * milli-GPU, whole cards must be entirely free; a node's GPU total alone decides nothing.
 */
public record ShareRequest(long milliCpu, long memoryMib, GpuDemand gpu, CardModelAllowList models) {

  public ShareRequest {
    if (milliCpu < 0) {
      throw new IllegalArgumentException("milliCpu must not be negative: " + milliCpu);
    }
    if (memoryMib < 0) {
      throw new IllegalArgumentException("memoryMib must not be negative: " + memoryMib);
    }
    Objects.requireNonNull(gpu, "gpu");
    // A CPU-only pod never lands on a card, so a model list would constrain nothing.
    models = gpu.cards() == 0 ? CardModelAllowList.ANY : Objects.requireNonNull(models, "models");
  }

  public static ShareRequest of(long milliCpu, long memoryMib, GpuDemand gpu) {
    return new ShareRequest(milliCpu, memoryMib, gpu, CardModelAllowList.ANY);
  }
}
