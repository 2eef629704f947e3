package io.gpufleet.engine.deviceplugin;

import io.gpufleet.model.gpu.GpuModel;

/**
 * The limits the MPS control daemon sets for each client of a GPU shared by MPS: pinned device
 * memory {@code floor(totalMemoryBytes / replicas / 2^20)} MiB and active thread percentage
 * {@code 100 / replicas} (integer division) ({@code cmd/mps-control-daemon/mps/daemon.go},
 * k8s-gpu-semantics §2.2). Unlike time-slicing, a client that exceeds its memory fails alone.
 */
public record MpsClientLimits(long memoryMiB, int activeThreadPercentage) {

  public static MpsClientLimits of(GpuModel gpu, int replicas) {
    if (replicas < 1) {
      throw new IllegalArgumentException("replicas must be >= 1, found " + replicas);
    }
    long bytes = gpu.memoryMiB().orElse(0) << 20;
    return new MpsClientLimits(bytes / replicas / (1L << 20), 100 / replicas);
  }
}
