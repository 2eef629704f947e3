package io.gpufleet.sim.scenario;

import java.time.Instant;

/** How a scenario's expectation (or a wait-until) came out, and when. */
public record ExpectationOutcome(int step, String description, Instant time, boolean passed, String detail) {}
