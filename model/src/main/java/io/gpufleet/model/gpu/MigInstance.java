package io.gpufleet.model.gpu;

import java.util.Objects;

/** One MIG GPU instance: a profile at a placement (with a single compute instance of the same size). */
public record MigInstance(MigProfile profile, MigPlacement placement) implements Comparable<MigInstance> {

  public MigInstance {
    Objects.requireNonNull(profile, "profile");
    Objects.requireNonNull(placement, "placement");
    if (placement.size() != profile.memorySlices()) {
      throw new IllegalArgumentException(profile.name() + " spans " + profile.memorySlices()
          + " memory slices, not " + placement.size());
    }
  }

  @Override
  public int compareTo(MigInstance o) {
    return placement.compareTo(o.placement);
  }

  /** {@code 3g.40gb@4}. */
  @Override
  public String toString() {
    return profile.name() + "@" + placement.start();
  }
}
