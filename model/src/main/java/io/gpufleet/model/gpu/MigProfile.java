package io.gpufleet.model.gpu;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * A MIG GPU-instance profile of one GPU model, as {@code nvidia-smi mig -lgip} and {@code -lgipp}
 * list it: its name ({@code 1g.10gb}, {@code 1g.10gb+me}), compute and memory slices, the most
 * instances the GPU holds, and the memory slices an instance may start at.
 *
 * <p>{@code memoryGiB}, {@code multiprocessors} and {@code engines} are the figures {@code -lgip} prints
 * where someone observed them; empty means not known (the catalogue never guesses them, see
 * {@link #memoryMiB}).
 */
public record MigProfile(
    String name,
    OptionalInt giProfileId,
    int computeSlices,
    int memorySlices,
    int maxInstances,
    List<Integer> starts,
    OptionalDouble memoryGiB,
    OptionalInt multiprocessors,
    Optional<MigEngines> engines) {

  public MigProfile {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(engines, "engines");
    starts = List.copyOf(starts);
    if (computeSlices < 1 || memorySlices < 1 || maxInstances < 1 || starts.isEmpty()) {
      throw new IllegalArgumentException("MIG profile " + name + " needs positive slices, instances and starts");
    }
  }

  /** Media-extension profiles ({@code +me}) add the decoders and may exist once per GPU. */
  public boolean mediaExtensions() {
    return name.contains("+me");
  }

  /**
   * The device plugin's resource name in the mixed strategy: {@code nvidia.com/mig-1g.10gb}, with
   * {@code +} turned into {@code .} ({@code nvidia.com/mig-1g.10gb.me}) (k8s-gpu-semantics §2.2).
   */
  public String resourceName() {
    return "nvidia.com/mig-" + name.replace('+', '.');
  }

  /** Every placement an instance of this profile may take. */
  public List<MigPlacement> placements() {
    return starts.stream().map(s -> new MigPlacement(s, memorySlices)).toList();
  }

  /**
   * The instance's memory in MiB: the observed {@code -lgip} figure where known, else the GPU's
   * memory times this profile's share of memory slices, rounded down (an estimate, flagged by
   * {@link #memoryObserved()}).
   */
  public long memoryMiB(GpuModel gpu) {
    if (memoryGiB.isPresent()) {
      return Math.round(memoryGiB.getAsDouble() * 1024);
    }
    int slices = gpu.migGeometry().map(MigGeometry::memorySlices).orElse(memorySlices);
    return gpu.memoryMiB().orElse(0) * memorySlices / slices;
  }

  public boolean memoryObserved() {
    return memoryGiB.isPresent();
  }

  /**
   * The instance's part of its card's compute: compute slices over the card's (a 1g.10gb is 1/7 of an
   * H100, a 3g.40gb 3/7; seven 1g instances fill the card, two 3g leave a seventh no instance can use).
   * (A card with MIG profiles always has a geometry: {@link GpuModel} checks it.)
   */
  public double computeShare(GpuModel gpu) {
    return gpu.migGeometry().map(g -> Math.min(1.0, (double) computeSlices / g.computeSlices())).orElse(1.0);
  }

  /** The resource name's suffix: the profile with {@code +} turned into {@code .}. */
  public String labelName() {
    return name.replace('+', '.');
  }
}
