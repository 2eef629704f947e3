package io.gpufleet.nvml.bench;

import java.util.SplittableRandom;

/**
 * How a tenant's requests arrive: back to back (closed loop) or as a Poisson process at
 * {@code ratePerSecond}, its gaps drawn from a stream seeded per tenant, so a rerun sees the same
 * arrival times.
 */
public sealed interface Arrivals {

  record Closed() implements Arrivals {}

  record Poisson(double ratePerSecond, long seed) implements Arrivals {
    public Poisson {
      if (!(ratePerSecond > 0)) {
        throw new IllegalArgumentException("rate must be > 0, found " + ratePerSecond);
      }
    }

    /** The gap to the next arrival, in nanoseconds: exponential with mean 1/rate. */
    long nextGap(SplittableRandom random) {
      return Math.round(-Math.log(1 - random.nextDouble()) / ratePerSecond * 1e9);
    }
  }

  /**
   * A run's loop: {@code ratePerSecond} 0 is closed loop; {@code seed} is the first tenant's stream.
   */
  record Settings(double seconds, double ratePerSecond, long seed) {
    public Settings {
      if (!(seconds > 0) || !(ratePerSecond >= 0)) {
        throw new IllegalArgumentException("need seconds > 0 and rate >= 0, found " + seconds + ", " + ratePerSecond);
      }
    }

    public boolean closedLoop() {
      return ratePerSecond == 0;
    }

    public long durationNanos() {
      return Math.round(seconds * 1e9);
    }

    /** Tenant {@code index} (from 1): each tenant draws from its own seeded stream. */
    public Arrivals forTenant(int index) {
      return closedLoop() ? new Closed() : new Poisson(ratePerSecond, seed + index);
    }
  }
}
