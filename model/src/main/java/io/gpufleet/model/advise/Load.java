package io.gpufleet.model.advise;

import java.util.Objects;

/**
 * The requests one replica receives: an open-loop rate (requests keep arriving whether or not the
 * last one finished) and how bursty they are.
 */
public record Load(double ratePerSecond, Burstiness burstiness) {

  public Load {
    Objects.requireNonNull(burstiness, "burstiness");
    if (!(ratePerSecond > 0 && Double.isFinite(ratePerSecond))) {
      throw new IllegalArgumentException("a request rate must be positive, found " + ratePerSecond);
    }
  }

  public Load withRate(double rate) {
    return new Load(rate, burstiness);
  }
}
