package io.gpufleet.sim.forecast;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The job's runs under several seeds, and their quantiles. A run in which the job was not running
 * (or not done) by the horizon counts as later than every run in which it was: a quantile that
 * falls on such a run is "not within the horizon" (empty), never the horizon itself.
 */
public record JobForecast(JobSpec job, List<JobRun> runs) {

  public JobForecast {
    runs = List.copyOf(runs);
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("a forecast needs at least one run");
    }
  }

  /** The {@code q}-quantile (nearest rank) of when the job was running; empty: not within the horizon. */
  public Optional<Duration> running(double q) {
    return quantile(q, JobRun::running);
  }

  /** As {@link #running}, for when it was done. */
  public Optional<Duration> finished(double q) {
    return quantile(q, JobRun::finished);
  }

  /** As {@link #running}, for when Kueue admitted it (a job Kueue queued). */
  public Optional<Duration> admitted(double q) {
    return quantile(q, r -> r.kueue().flatMap(JobRun.Queued::admitted));
  }

  /** Whether Kueue queued the job (in the first run; the cluster is the same in every run). */
  public boolean queued() {
    return runs.getFirst().kueue().isPresent();
  }

  /** Runs in which Kueue admitted the job by the horizon. */
  public long admittedRuns() {
    return runs.stream().filter(r -> r.kueue().flatMap(JobRun.Queued::admitted).isPresent()).count();
  }

  /** Runs in which the job was running by the horizon. */
  public long runningRuns() {
    return runs.stream().filter(r -> r.running().isPresent()).count();
  }

  /** Runs in which it was done by the horizon. */
  public long finishedRuns() {
    return runs.stream().filter(r -> r.finished().isPresent()).count();
  }

  /** The {@code q}-quantile (nearest rank) of what the cards its pods held cost; every run has one. */
  public double dollars(double q) {
    return quantile(q, r -> Optional.of(r.held().dollars())).orElseThrow();
  }

  private <T extends Comparable<T>> Optional<T> quantile(double q, Function<JobRun, Optional<T>> of) {
    List<T> seen = runs.stream().map(of).flatMap(Optional::stream).sorted().toList();
    int rank = Math.max(1, (int) Math.ceil(q * runs.size()));
    return rank <= seen.size() ? Optional.of(seen.get(rank - 1)) : Optional.empty();
  }
}
