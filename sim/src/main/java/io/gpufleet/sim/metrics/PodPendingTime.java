package io.gpufleet.sim.metrics;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** How long a pod waited for a node: from creation to its first binding (still waiting: empty). */
public record PodPendingTime(String pod, Optional<String> workload, Instant created, Optional<Instant> scheduled) {

  public Optional<Duration> pending() {
    return scheduled.map(s -> Duration.between(created, s));
  }
}
