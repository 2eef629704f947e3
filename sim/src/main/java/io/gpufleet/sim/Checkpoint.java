package io.gpufleet.sim;

import io.gpufleet.sim.state.ClusterState;
import java.time.Instant;

/**
 * The cluster at a {@code Checkpoint} action: its label, the virtual time, the immutable cluster
 * image, and how many run-record entries came before it (so a report can show what happened
 * between two checkpoints).
 */
public record Checkpoint(String label, Instant time, ClusterState state, int recordEntries) {}
