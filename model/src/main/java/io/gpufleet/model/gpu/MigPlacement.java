package io.gpufleet.model.gpu;

/**
 * Where a MIG GPU instance sits: its first memory slice and how many memory slices it spans, as
 * {@code nvidia-smi mig -lgipp} prints it ({@code {0,2,4}:2} lists three placements of size 2).
 */
public record MigPlacement(int start, int size) implements Comparable<MigPlacement> {

  public MigPlacement {
    if (start < 0 || size < 1) {
      throw new IllegalArgumentException("placement needs start >= 0 and size >= 1, found " + start + ":" + size);
    }
  }

  /** One past the last memory slice. */
  public int end() {
    return start + size;
  }

  public boolean overlaps(MigPlacement other) {
    return start < other.end() && other.start < end();
  }

  @Override
  public int compareTo(MigPlacement o) {
    return start != o.start ? Integer.compare(start, o.start) : Integer.compare(size, o.size);
  }

  /** {@code 4:4}, as {@code -lgipp} writes one placement. */
  @Override
  public String toString() {
    return start + ":" + size;
  }
}
