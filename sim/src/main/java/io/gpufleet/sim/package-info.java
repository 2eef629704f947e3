/**
 * The simulator's public face: run a scenario with settings and a progress listener, and get its
 * result (record, metrics, expectations, invariants, checkpoints). Deterministic for a scenario
 * and seed; no YAML and no terminal here.
 */
package io.gpufleet.sim;
