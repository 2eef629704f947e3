package io.gpufleet.sim.invariant;

import java.time.Instant;

/** A broken invariant: which, when, about what, and how. */
public record InvariantViolation(Instant time, String invariant, String subject, String detail) {
  @Override
  public String toString() {
    return time + " " + invariant + " " + subject + ": " + detail;
  }
}
