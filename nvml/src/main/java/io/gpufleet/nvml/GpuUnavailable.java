package io.gpufleet.nvml;

/**
 * This machine has no NVIDIA GPU gpufleet can use: no NVML library, no driver loaded, no device, no
 * CUDA driver library. The message is the one line the user sees (exit code 3), so it says what was
 * tried and what to do.
 */
public final class GpuUnavailable extends RuntimeException {
  public GpuUnavailable(String message) {
    super(message);
  }
}
