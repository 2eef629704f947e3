package io.gpufleet.autoscaler.disruption;

import java.time.Instant;

/** A disruption command being executed: its replacements are launching, its candidates tainted. */
public record InFlightDisruption(DisruptionCommand command, Instant executed) {}
