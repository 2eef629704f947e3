package io.gpufleet.model.advise;

import java.util.Locale;
import java.util.Optional;

/**
 * What limits one request running alone. The two H200 workloads show both: {@code big} streams
 * 12.9 GB of weights per request and is held by memory bandwidth; {@code small} launches 768 tiny
 * kernels and is held by the host launching them, leaving the GPU mostly idle.
 */
public enum Boundness {
  /** One long burst of bandwidth-bound kernels per request; co-tenants' bursts contend for it. */
  MEMORY,
  /** A stream of tiny kernels with host-side gaps between them; co-tenants fill each other's gaps. */
  LAUNCH;

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<Boundness> parse(String text) {
    for (Boundness b : values()) {
      if (b.label().equals(text.strip().toLowerCase(Locale.ROOT))) {
        return Optional.of(b);
      }
    }
    return Optional.empty();
  }
}
