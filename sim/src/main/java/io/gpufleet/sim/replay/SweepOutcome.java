package io.gpufleet.sim.replay;

/** A finished sweep replay: its summary and its curve on the x grid. */
public record SweepOutcome(SweepCell cell, ReplaySummary summary, ArrivalGrid grid) {}
