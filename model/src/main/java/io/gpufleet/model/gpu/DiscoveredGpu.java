package io.gpufleet.model.gpu;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * A GPU model the catalogue lacks, as a node describes it: the product GFD labels it with, and the
 * memory and compute capability the node states, if it does. The twin reads such a card rather than
 * refusing the node; it has no MIG geometry or profiles (nothing on a node states them, and a guess
 * would place MIG devices the card may not have), no SM count and no performance figures.
 *
 * @param product   GFD's {@code nvidia.com/gpu.product}: NVML's name with spaces turned into
 *                  {@code -}, which cannot be turned back, so it serves as id and name alike
 * @param memoryMiB the node's {@code nvidia.com/gpu.memory}; empty where nothing states it
 * @param compute   the node's {@code nvidia.com/gpu.compute.major}/{@code .minor}
 * @param takenFrom what was read from where, as the model's sources
 */
public record DiscoveredGpu(String product, OptionalLong memoryMiB, Optional<ComputeCapability> compute,
    List<String> takenFrom) {

  public DiscoveredGpu {
    Objects.requireNonNull(product, "product");
    if (product.isBlank()) {
      throw new IllegalArgumentException("a discovered GPU needs its product");
    }
    takenFrom = List.copyOf(takenFrom);
  }

  /** The model the twin uses for it: whole cards only, its figures as the node stated them. */
  public GpuModel model() {
    return new GpuModel(product, product, memoryMiB, false, compute, OptionalInt.empty(), Optional.empty(), List.of(),
        OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty(), Optional.empty(), List.of(),
        takenFrom.isEmpty() ? List.of("discovered from a node; not in the GPU catalogue") : takenFrom);
  }
}
