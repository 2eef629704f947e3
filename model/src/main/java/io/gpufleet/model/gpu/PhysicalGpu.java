package io.gpufleet.model.gpu;

import java.util.Objects;

/** One card in a node: its index (as {@code nvidia-smi} numbers it), its UUID and its model. */
public record PhysicalGpu(int index, String uuid, GpuModel model) {
  public PhysicalGpu {
    Objects.requireNonNull(uuid, "uuid");
    Objects.requireNonNull(model, "model");
  }
}
