package io.gpufleet.sim.replay;

import io.gpufleet.engine.placement.PolicyKind;

/** One replay of a sweep: a trace variant under a policy with a seed. */
public record SweepCell(String variant, PolicyKind policy, long seed) {}
