/**
 * The FGD paper's trace replay: workload tuning, the one-pod-at-a-time arrival loop with per-
 * shape score caching, curves on the paper's x grid, idle-GPU breakdown and sweeps over
 * variants, policies and seeds on a caller-owned executor. The placement policies themselves
 * live in {@code engine.placement}.
 */
package io.gpufleet.sim.replay;
