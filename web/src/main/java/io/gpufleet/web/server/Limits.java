package io.gpufleet.web.server;

import java.time.Duration;

/**
 * What bounds a dashboard's memory and work: runs kept, what-ifs playing at once and how long a
 * further one waits for its turn, frames kept per run, and the largest request body.
 */
public record Limits(int maxRuns, int concurrentRuns, Duration queueWait, int maxFrames, long maxBodyBytes) {

  public static final Limits DEFAULTS = new Limits(8, 2, Duration.ofSeconds(10), 20_000, 16 * 1024);

  public Limits {
    if (maxRuns < 2 || concurrentRuns < 1 || maxFrames < 4 || maxBodyBytes < 1) {
      throw new IllegalArgumentException("limits too small: " + maxRuns + ", " + concurrentRuns + ", " + maxFrames);
    }
  }
}
