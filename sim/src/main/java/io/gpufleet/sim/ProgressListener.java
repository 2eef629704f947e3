package io.gpufleet.sim;

import java.time.Instant;

/** Told how a run advances, every so many events and at each timeline step; never prints. */
@FunctionalInterface
public interface ProgressListener {

  ProgressListener NONE = p -> { };

  void onProgress(Progress progress);

  /** Where a run is: virtual time, events processed, timeline steps done of all. */
  record Progress(Instant now, long events, int step, int steps) {}
}
