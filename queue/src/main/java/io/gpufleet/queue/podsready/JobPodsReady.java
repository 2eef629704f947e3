package io.gpufleet.queue.podsready;

import java.util.Optional;

/**
 * Whether a batch/v1 Job's pods are ready for Kueue ({@code pkg/controller/jobs/job/job_controller.go}
 * {@code PodsReady}): ready plus succeeded pods reach {@code podsCount}, which is parallelism, or
 * completions when set and smaller.
 */
public final class JobPodsReady {

  private JobPodsReady() {}

  public static boolean ready(int parallelism, Optional<Integer> completions, int ready, int succeeded) {
    return succeeded + ready >= podsCount(parallelism, completions);
  }

  /** {@code podsCount}: parallelism, or completions when it is set and smaller. */
  public static int podsCount(int parallelism, Optional<Integer> completions) {
    return completions.filter(c -> c < parallelism).orElse(parallelism);
  }
}
