package io.gpufleet.sim;

import io.gpufleet.sim.state.ClusterState;
import java.time.Instant;

/**
 * Told the cluster image after every event that changed it, so a viewer can show the cluster at any
 * virtual time of a finished run. Images are immutable and share what did not change, so keeping
 * them costs only the changes. Never prints and never changes the run.
 */
@FunctionalInterface
public interface ImageListener {

  ImageListener NONE = i -> { };

  void onImage(Image image);

  /**
   * The cluster after an event: its virtual time, the events processed so far, and how many
   * run-record entries came before it (the same count a {@link Checkpoint} keeps).
   */
  record Image(Instant time, long events, ClusterState state, int recordEntries) {}
}
