package io.gpufleet.sim.kernel;

import java.time.Instant;
import java.time.InstantSource;

/**
 * The simulation's clock: an {@link InstantSource} that only the kernel moves, to the time of the
 * event it is about to process. Time never goes back.
 */
public final class VirtualClock implements InstantSource {

  private Instant now;

  public VirtualClock(Instant start) {
    this.now = start;
  }

  @Override
  public Instant instant() {
    return now;
  }

  void advanceTo(Instant t) {
    if (t.isBefore(now)) {
      throw new IllegalStateException("time cannot go back from " + now + " to " + t);
    }
    now = t;
  }
}
