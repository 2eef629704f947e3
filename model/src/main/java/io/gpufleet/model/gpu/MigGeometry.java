package io.gpufleet.model.gpu;

/**
 * How a MIG-capable GPU is cut: memory slices and compute slices. The A100/H100/H200/B200 class has
 * 8 memory and 7 compute slices; the A30 has 4 and 4 (k8s-gpu-semantics §4).
 */
public record MigGeometry(int memorySlices, int computeSlices) {

  public MigGeometry {
    if (memorySlices < 1 || computeSlices < 1) {
      throw new IllegalArgumentException("MIG geometry needs at least one memory and one compute slice");
    }
  }

  /** {@code 8x7}. */
  @Override
  public String toString() {
    return memorySlices + "x" + computeSlices;
  }
}
