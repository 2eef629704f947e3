package io.gpufleet.sim.controller;

import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.queue.api.KueueConfiguration;
import io.gpufleet.queue.api.WaitForPodsReady;
import io.gpufleet.queue.api.WorkloadCondition;
import io.gpufleet.queue.podsready.AdmissionBlock;
import io.gpufleet.queue.podsready.JobPodsReady;
import io.gpufleet.queue.podsready.NotReadyTimeout;
import io.gpufleet.queue.podsready.PodsReadyCondition;
import io.gpufleet.queue.podsready.PodsReadyTimeout;
import io.gpufleet.sim.kernel.Event;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.state.PodState;
import io.gpufleet.sim.state.WorkloadState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.random.RandomGenerator;

/**
 * Kueue's waitForPodsReady in the simulation, beside {@link KueueController}: for each admitted Job
 * the Workload's PodsReady condition from its ready and succeeded pods (the Job reconciler), the
 * timeout after admission and, once it is exceeded, eviction with reason PodsReadyTimeout and a
 * requeue after the backoff, or deactivation past {@code backoffLimitCount} (the workload
 * controller); and, with {@code blockAdmission}, whether admission waits. The decisions are the
 * {@code queue} module's ({@code io.gpufleet.queue.podsready}); the backoff's jitter comes from a
 * stream of its own. Kueue records no event for a condition: the run record shows PodsReady's
 * transitions to True (Started, Recovered) and to WaitForRecovery, the WaitingForPodsReady hold and
 * the Requeued condition's BackoffFinished as "Reason: message" of the condition.
 */
final class KueuePodsReady {

  /** What stops an admitted Job: suspends it and deletes its pods, its quota held until they are gone. */
  interface Stopper {
    void stop(ObjectRef job, String why);
  }

  private final ApiServer api;
  private final RandomGenerator jitter;
  private Optional<WaitForPodsReady> config = KueueConfiguration.DEFAULT.waitForPodsReady();
  /** Admitted Workloads (not evicted since): when, and their PodsReady condition once it has been written. */
  private final Map<ObjectRef, Admitted> admitted = new TreeMap<>();
  /** {@code requeueState.count} of each Workload the timeout evicted. */
  private final Map<ObjectRef, Integer> requeues = new TreeMap<>();
  /** {@code requeueState.requeueAt}: evicted Workloads backing off until then. */
  private final Map<ObjectRef, Instant> backoff = new TreeMap<>();
  /** When the timeout evicted a Workload not admitted since: its place in the queue with timestamp Eviction. */
  private final Map<ObjectRef, Instant> evictedAt = new TreeMap<>();
  /** Workloads deactivated ({@code spec.active: false}): never admitted again. */
  private final Set<ObjectRef> deactivated = new TreeSet<>();

  private record Admitted(String workload, Instant at, Optional<WorkloadCondition> podsReady) {}

  KueuePodsReady(ApiServer api, RandomGenerator jitter) {
    this.api = api;
    this.jitter = jitter;
  }

  void configure(KueueConfiguration c) {
    config = c.waitForPodsReady();
  }

  Optional<WaitForPodsReady> config() {
    return config;
  }

  /** A Workload was admitted now: its timeout starts (the Admitted condition's transition). */
  void admitted(ObjectRef job, String workload) {
    if (config.isEmpty()) {
      return;
    }
    evictedAt.remove(job);
    admitted.put(job, new Admitted(workload, api.now(), Optional.empty()));
    api.wake(new Event.WorkloadSync(), api.now().plus(config.get().timeout()));
  }

  /** Its quota is released (finished, deleted) or it was evicted: no longer timed. */
  void released(ObjectRef job) {
    admitted.remove(job);
  }

  /** The Job is gone: everything about it is forgotten. */
  void forget(ObjectRef job) {
    admitted.remove(job);
    requeues.remove(job);
    backoff.remove(job);
    evictedAt.remove(job);
    deactivated.remove(job);
  }

  /** Whether the Workload is out of the queue: deactivated, or backing off after the timeout. */
  boolean heldBack(ObjectRef job) {
    return deactivated.contains(job) || backoff.containsKey(job);
  }

  /**
   * The time that orders a pending Workload in its queue when it is not its creation: the timeout's
   * eviction, with {@code requeuingStrategy.timestamp: Eviction} ({@code workload.go} GetQueueOrderTimestamp).
   */
  Optional<Instant> queueOrderTime(ObjectRef job) {
    boolean byEviction = config.map(c -> c.requeuingStrategy().timestamp() == WaitForPodsReady.Timestamp.EVICTION)
        .orElse(false);
    return byEviction ? Optional.ofNullable(evictedAt.get(job)) : Optional.empty();
  }

  /**
   * Ends the backoffs due by now (the Requeued condition's BackoffFinished); whether any did, so the
   * Workloads set aside are tried again.
   */
  boolean backoffsEnded(Map<ObjectRef, String> names) {
    boolean any = false;
    for (var e : List.copyOf(backoff.entrySet())) {
      if (!e.getValue().isAfter(api.now())) {
        backoff.remove(e.getKey());
        WorkloadCondition c = PodsReadyTimeout.requeued(new WorkloadCondition("Requeued", false,
            PodsReadyTimeout.EVICTED_BY_PODS_READY_TIMEOUT, "", api.now()), Optional.of(e.getValue()), api.now());
        log(names.getOrDefault(e.getKey(), e.getKey().toString()), c);
        any = true;
      }
    }
    return any;
  }

  /**
   * The Job reconciler's PodsReady for each admitted Workload (a pod group's as {@code podGroupReady}
   * gives it), then the workload controller's timeout:
   * an exceeded one is evicted (and requeued after its backoff) or deactivated, through {@code stopper}.
   */
  void sync(Stopper stopper, java.util.function.Function<ObjectRef, Optional<Boolean>> podGroupReady) {
    if (config.isEmpty()) {
      return;
    }
    for (var e : List.copyOf(admitted.entrySet())) {
      ObjectRef job = e.getKey();
      Admitted a = e.getValue();
      WorkloadCondition next = PodsReadyCondition.next(true, podGroupReady.apply(job).orElseGet(() -> podsReady(job)),
          a.podsReady(), api.now());
      if (a.podsReady().map(c -> !c.reason().equals(next.reason())).orElse(true)) {
        if (next.status() || next.reason().equals(PodsReadyCondition.WAIT_FOR_RECOVERY)) {
          log(a.workload(), next);
        }
        a = new Admitted(a.workload(), a.at(), Optional.of(next));
        admitted.put(job, a);
      }
      Optional<NotReadyTimeout.Waiting> w = NotReadyTimeout.check(config, Optional.of(a.at()), a.podsReady(), api.now());
      if (w.isEmpty()) {
        continue;
      }
      if (!w.get().left().isZero()) {
        api.wake(new Event.WorkloadSync(), api.now().plus(w.get().left()));
        continue;
      }
      admitted.remove(job);
      PodsReadyTimeout.Outcome o = PodsReadyTimeout.exceeded(a.workload(), w.get().cause(), requeues.getOrDefault(job, 0),
          config.get(), api.now(), jitter::nextDouble);
      api.log(RunRecord.Kind.KUEUE_EVENT, a.workload(), o.eventReason() + ": " + o.message());
      switch (o) {
        case PodsReadyTimeout.Evicted ev -> {
          requeues.put(job, ev.count());
          evictedAt.put(job, api.now());
          backoff.put(job, ev.requeueAt());
          api.wake(new Event.WorkloadSync(), ev.requeueAt());
        }
        case PodsReadyTimeout.Deactivated d -> deactivated.add(job);
      }
      stopper.stop(job, o.message());
    }
  }

  /** {@code job_controller.go} PodsReady: ready (not terminating) and succeeded pods reach the pod count. */
  private boolean podsReady(ObjectRef job) {
    WorkloadState w = api.state().workloads().get(job);
    if (w == null || !(w.workload() instanceof Workload.Job j)) {
      return false;
    }
    int ready = (int) api.state().podsOf(job).stream().filter(PodState::isReady).count();
    return JobPodsReady.ready(j.parallelism(), Optional.of(j.completions()), ready,
        w.succeeded());
  }

  /**
   * With blockAdmission: the QuotaReserved condition a Workload that fits gets instead of admission,
   * while some Workload holding quota ({@code quotaHolders}) is not PodsReady; empty when admission may go on.
   */
  Optional<WorkloadCondition> blocked(Collection<ObjectRef> quotaHolders) {
    List<Optional<WorkloadCondition>> conditions = new ArrayList<>();
    for (ObjectRef h : quotaHolders) {
      conditions.add(Optional.ofNullable(admitted.get(h)).flatMap(Admitted::podsReady));
    }
    return AdmissionBlock.blocked(config, conditions, api.now());
  }

  private void log(String workload, WorkloadCondition c) {
    api.log(RunRecord.Kind.KUEUE_EVENT, workload, c.reason() + ": " + c.message());
  }
}
