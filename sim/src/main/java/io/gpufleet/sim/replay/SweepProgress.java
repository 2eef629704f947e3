package io.gpufleet.sim.replay;

/**
 * Told as each replay of a sweep finishes. Called from worker threads, possibly at the same time;
 * {@code done} counts finished replays, so an implementation may just draw the larger one.
 */
@FunctionalInterface
public interface SweepProgress {

  SweepProgress SILENT = (done, total, cell) -> {};

  void finished(int done, int total, SweepCell cell);
}
