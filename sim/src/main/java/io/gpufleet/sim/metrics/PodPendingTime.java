package io.gpufleet.sim.metrics;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** How long a pod waited for a node: from creation to its first binding (still waiting: empty). */
public record PodPendingTime(String pod, Optional<String> workload, Instant created, Optional<Instant> scheduled) {

  public Optional<Duration> pending() {
    return scheduled.map(s -> Duration.between(created, s));
  }

  /**
   * The wait as observed by {@code end}: the whole wait for a scheduled pod, or for a pod still
   * pending the wait so far, a lower bound (censored at the end of the run).
   */
  public Duration waitedBy(Instant end) {
    return Duration.between(created, scheduled.orElse(end));
  }
}
