package io.gpufleet.nvml;

import java.util.Optional;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/** For tests tagged {@code gpu}: skips them, with the reason, where this machine has no usable NVIDIA GPU. */
public final class GpuPresent {
  private GpuPresent() {}

  /** Opens NVML or skips the calling test with NVML's own one-line reason. */
  public static NvmlLibrary nvmlOrSkip() {
    try {
      return NvmlLibrary.open(Optional.empty(), Map.of());
    } catch (GpuUnavailable e) {
      Assumptions.abort("skipped, needs a GPU: " + e.getMessage());
      throw e;
    }
  }
}
