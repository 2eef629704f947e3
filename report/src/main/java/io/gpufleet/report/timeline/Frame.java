package io.gpufleet.report.timeline;

import io.gpufleet.sim.state.ClusterState;
import java.time.Instant;
import java.util.Optional;

/**
 * The cluster at one moment of a finished run: after an event that changed it, or at one of the
 * scenario's checkpoints ({@code checkpoint} holds its label).
 *
 * @param recordEntries how many run-record entries came before this image
 */
public record Frame(Instant time, ClusterState state, int recordEntries, Optional<String> checkpoint) {}
