package io.gpufleet.sim.forecast;

import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.metrics.PodPendingTime;
import io.gpufleet.sim.metrics.TeamCost;
import io.gpufleet.sim.record.PendingFates;
import io.gpufleet.sim.record.RunRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One run's answer for the job, times from the run's start (the job's submission): when the pods it
 * needs at once were all running, when the last completion it needs came, which nodes its pods bound
 * to (and what Karpenter launched for them), what the cards they held cost, and, for pods that never
 * started, what the scheduler and Karpenter last said of them.
 *
 * @param placements per node its pods bound to, Karpenter's launch of it ("g6.xlarge spot in
 *     us-east-1a at $0.35/h" as the run recorded it) or empty for a node that was there
 * @param waiting for pods that never started, the scheduler's and Karpenter's last words about each (one
 *     entry per distinct pair), with how many pods they were said of
 * @param kueue when the job's Jobs were queued in Kueue: when the last of them was admitted, and for one
 *     never admitted Kueue's last Pending message; empty when Kueue did not queue it
 */
public record JobRun(long seed, Duration horizon, int pods, Optional<Duration> running, Optional<Duration> finished,
    SortedMap<String, String> placements, TeamCost.Share held, SortedMap<String, Integer> waiting,
    Optional<Queued> kueue) {

  /** A job Kueue queued: when it was admitted (empty: never, by the horizon) and else why it was Pending. */
  public record Queued(Optional<Duration> admitted, Optional<String> pending) {}

  /** The job's team name in the cost split: every other pod is {@link #OTHERS}. */
  static final String JOB = "job";
  static final String OTHERS = "others";

  public static JobRun of(SimulationResult r, long seed, JobSpec job) {
    Set<String> mine = new HashSet<>();
    for (PodPendingTime p : r.metrics().pendingTimes()) {
      if (job.owns(p.pod(), p.workload().orElse(""))) {
        mine.add(p.pod());
      }
    }
    List<Instant> started = new ArrayList<>();
    List<Instant> succeeded = new ArrayList<>();
    Set<String> everStarted = new HashSet<>();
    Map<String, String> scheduler = new LinkedHashMap<>();
    Map<String, String> karpenter = new LinkedHashMap<>();
    for (RunRecord.Entry e : r.record().entries()) {
      if (!mine.contains(e.subject())) {
        continue;
      }
      switch (e.kind()) {
        case POD_STARTED -> {
          if (everStarted.add(e.subject())) {
            started.add(e.time());
          }
        }
        case POD_SUCCEEDED -> succeeded.add(e.time());
        case POD_FAILED_SCHEDULING, DEVICE_ALLOCATION_REFUSED -> scheduler.put(e.subject(), e.message());
        case KARPENTER_EVENT -> karpenter.put(e.subject(), e.message());
        default -> { }
      }
    }
    Optional<Queued> kueue = queued(r, job);
    SortedMap<String, String> placements = new TreeMap<>();
    List<String> keys = mine.stream().sorted().toList();
    for (PendingFates.Fate f : PendingFates.of(r.record(), r.start(), keys).values()) {
      switch (f.kind()) {
        case LAUNCHED -> placements.put(f.node(), f.launch());
        case EXISTING_NODE -> placements.putIfAbsent(f.node(), "");
        case REFUSED, STILL_PENDING -> { }
      }
    }
    SortedMap<String, Integer> waiting = new TreeMap<>();
    for (String pod : keys) {
      if (!everStarted.contains(pod)) {
        List<String> said = new ArrayList<>();
        Optional.ofNullable(scheduler.get(pod)).ifPresent(m -> said.add("kube-scheduler: " + m));
        Optional.ofNullable(karpenter.get(pod)).ifPresent(m -> said.add("Karpenter: " + m));
        waiting.merge(said.isEmpty() ? "nothing was said of it" : String.join("; ", said), 1, Integer::sum);
      }
    }
    TeamCost.Share held = r.metrics().teamCost(pod -> mine.contains(pod) ? JOB : OTHERS).byNamespace()
        .getOrDefault(JOB, TeamCost.Share.NONE);
    return new JobRun(seed, r.simulated(), mine.size(), nth(started, job.running(), r.start()),
        job.completions() == 0 ? Optional.empty() : nth(succeeded, job.completions(), r.start()),
        placements, held, waiting, kueue);
  }

  /**
   * Kueue's events about the job's Jobs (their Workloads are named after them): queued when a Workload
   * was created; admitted when every one was, at the last admission; else the last Pending message.
   */
  private static Optional<Queued> queued(SimulationResult r, JobSpec job) {
    Set<String> workloads = new HashSet<>();
    job.workloads().stream().filter(w -> w.kind().equals("Job"))
        .forEach(w -> workloads.add(ObjectMeta.key(w.namespace(), w.name())));
    Map<String, Instant> admitted = new LinkedHashMap<>();
    Map<String, String> pending = new LinkedHashMap<>();
    Set<String> created = new HashSet<>();
    for (RunRecord.Entry e : r.record().of(RunRecord.Kind.KUEUE_EVENT)) {
      if (!workloads.contains(e.subject())) {
        continue;
      }
      if (e.message().startsWith("CreatedWorkload: ")) {
        created.add(e.subject());
      } else if (e.message().startsWith("Admitted: ")) {
        admitted.putIfAbsent(e.subject(), e.time());
      } else if (e.message().startsWith("Pending: ")) {
        pending.put(e.subject(), e.message().substring("Pending: ".length()));
      }
    }
    if (created.isEmpty()) {
      return Optional.empty();
    }
    if (admitted.keySet().containsAll(created)) {
      Instant last = admitted.values().stream().max(Instant::compareTo).orElseThrow();
      return Optional.of(new Queued(Optional.of(Duration.between(r.start(), last)), Optional.empty()));
    }
    return Optional.of(new Queued(Optional.empty(), created.stream().sorted().filter(w -> !admitted.containsKey(w))
        .map(pending::get).filter(java.util.Objects::nonNull).findFirst()));
  }

  /** When the {@code n}-th of these happened, from {@code start}; empty when fewer did (or n is 0). */
  private static Optional<Duration> nth(List<Instant> times, int n, Instant start) {
    if (n < 1 || times.size() < n) {
      return Optional.empty();
    }
    List<Instant> sorted = times.stream().sorted().toList();
    return Optional.of(Duration.between(start, sorted.get(n - 1)));
  }
}
