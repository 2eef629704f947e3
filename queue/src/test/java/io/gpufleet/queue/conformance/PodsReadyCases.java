package io.gpufleet.queue.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.queue.api.WaitForPodsReady;
import io.gpufleet.queue.api.WorkloadCondition;
import io.gpufleet.queue.podsready.AdmissionBlock;
import io.gpufleet.queue.podsready.Backoff;
import io.gpufleet.queue.podsready.JobPodsReady;
import io.gpufleet.queue.podsready.NotReadyTimeout;
import io.gpufleet.queue.podsready.PodsReadyCondition;
import io.gpufleet.queue.podsready.PodsReadyTimeout;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * waitForPodsReady, translated from Kueue's unit tests: when an admitted workload's timeout runs and
 * how long it has left ({@code workload_controller_test.go} TestAdmittedNotReadyWorkload), when a
 * Job's pods count as ready ({@code job_controller_test.go} TestPodsReady), the backoff's wait times
 * ({@code backoff_test.go}), and what the timeout does: eviction with the requeue count and time,
 * deactivation past backoffLimitCount, the Requeued condition when the backoff ends
 * ({@code workload_controller_requeue_test.go}, {@code workload_controller_eviction_test.go}), and
 * whether blockAdmission holds admissions: every workload holding quota PodsReady
 * ({@code cache_test.go} TestCachePodsReadyForAllAdmittedWorkloads). The
 * upstream tests configure {@code requeuingBackoffJitter: 0}; the twin's jitter draw is 0 here, which
 * gives the same wait.
 */
final class PodsReadyCases {

  private static final String AREA = "waitForPodsReady";
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant MINUTE_AGO = NOW.minus(Duration.ofMinutes(1));

  private PodsReadyCases() {}

  static List<UpstreamCase> all() {
    List<UpstreamCase> out = new ArrayList<>();
    admittedNotReady(out);
    jobPodsReady(out);
    backoff(out);
    requeue(out);
    allReady(out);
    return out;
  }

  private static WaitForPodsReady timeout(Duration timeout) {
    return new WaitForPodsReady(timeout, false, WaitForPodsReady.RequeuingStrategy.DEFAULT, Optional.empty());
  }

  private static WorkloadCondition podsReady(boolean status, String reason, Instant at) {
    return new WorkloadCondition(PodsReadyCondition.TYPE, status, reason, "", at);
  }

  /** An admittedNotReadyWorkload case: the config, Admitted's time when True, PodsReady, the cause and time left. */
  private static Runnable notReady(Optional<WaitForPodsReady> config, Optional<Instant> admitted,
      Optional<WorkloadCondition> podsReady, String wantCause, Duration wantRecheck) {
    return () -> {
      Optional<NotReadyTimeout.Waiting> got = NotReadyTimeout.check(config, admitted, podsReady, NOW);
      assertThat(got.map(NotReadyTimeout.Waiting::cause).orElse("")).as("underlying cause").isEqualTo(wantCause);
      assertThat(got.map(NotReadyTimeout.Waiting::left).orElse(Duration.ZERO)).as("recheckAfter").isEqualTo(wantRecheck);
    };
  }

  private static void admittedNotReady(List<UpstreamCase> out) {
    String file = "pkg/controller/core/workload_controller_test.go";
    String t = "TestAdmittedNotReadyWorkload: ";
    Optional<WaitForPodsReady> five = Optional.of(timeout(Duration.ofMinutes(5)));
    Optional<Instant> admitted = Optional.of(MINUTE_AGO);
    out.add(UpstreamCase.of(AREA, file, t + "workload without Admitted condition; not counting",
        notReady(Optional.empty(), Optional.empty(), Optional.empty(), "", Duration.ZERO)));
    out.add(UpstreamCase.of(AREA, file, t + "workload with Admitted=True, no PodsReady; counting",
        notReady(five, admitted, Optional.empty(), PodsReadyCondition.WAIT_FOR_START, Duration.ofMinutes(4))));
    out.add(UpstreamCase.of(AREA, file, t + "workload with Admitted=True, no PodsReady, but no timeout configured; "
        + "not counting", notReady(Optional.empty(), admitted, Optional.empty(), "", Duration.ZERO)));
    out.add(UpstreamCase.of(AREA, file, t + "workload with Admitted=True, no PodsReady; timeout exceeded",
        notReady(five, Optional.of(NOW.minus(Duration.ofMinutes(7))), Optional.empty(), PodsReadyCondition.WAIT_FOR_START,
            Duration.ZERO)));
    out.add(UpstreamCase.of(AREA, file, t + "with reason WorkloadWaitForPodsReadyStart; workload with Admitted=True, "
        + "PodsReady=False; counting since admitted.LastTransitionTime", notReady(five, admitted,
            Optional.of(podsReady(false, PodsReadyCondition.WAIT_FOR_START, NOW)), PodsReadyCondition.WAIT_FOR_START,
            Duration.ofMinutes(4))));
    out.add(UpstreamCase.of(AREA, file, t + "with reason PodsReady; workload with Admitted=True, PodsReady=False; "
        + "counting since admitted.LastTransitionTime", notReady(five, admitted,
            Optional.of(podsReady(false, "PodsReady", NOW)), PodsReadyCondition.WAIT_FOR_START, Duration.ofMinutes(4))));
    // Upstream's config here sets only recoveryTimeout: its timeout is zero.
    out.add(UpstreamCase.of(AREA, file, t + "workload with Admitted=True, PodsReady=False, "
        + "Reason=WorkloadWaitForPodsReadyRecovery", notReady(Optional.of(new WaitForPodsReady(Duration.ZERO, false,
            WaitForPodsReady.RequeuingStrategy.DEFAULT, Optional.of(Duration.ofMinutes(3)))), admitted,
            Optional.of(podsReady(false, PodsReadyCondition.WAIT_FOR_RECOVERY, NOW)),
            PodsReadyCondition.WAIT_FOR_RECOVERY, Duration.ofMinutes(3))));
    out.add(UpstreamCase.of(AREA, file, t + "workload with Admitted=True, PodsReady=False, "
        + "Reason=WorkloadWaitForPodsReadyRecovery, recoveryTimeout not configured", notReady(
            Optional.of(timeout(Duration.ZERO)), admitted,
            Optional.of(podsReady(false, PodsReadyCondition.WAIT_FOR_RECOVERY, NOW)), "", Duration.ZERO)));
    // Admitted Unknown or False: IsAdmitted is false, so no admission time counts.
    out.add(UpstreamCase.of(AREA, file, t + "workload with Admitted=Unknown; not counting",
        notReady(five, Optional.empty(), Optional.empty(), "", Duration.ZERO)));
    out.add(UpstreamCase.of(AREA, file, t + "workload with Admitted=False, not counting",
        notReady(five, Optional.empty(), Optional.empty(), "", Duration.ZERO)));
    out.add(UpstreamCase.of(AREA, file, t + "workload with Admitted=True, PodsReady=True; not counting",
        notReady(five, admitted, Optional.of(podsReady(true, "", NOW)), "", Duration.ZERO)));
  }

  private static Runnable ready(int parallelism, Optional<Integer> completions, int ready, int succeeded, boolean want) {
    return () -> assertThat(JobPodsReady.ready(parallelism, completions, ready, succeeded)).isEqualTo(want);
  }

  private static void jobPodsReady(List<UpstreamCase> out) {
    String file = "pkg/controller/jobs/job/job_controller_test.go";
    String t = "TestPodsReady: ";
    Optional<Integer> three = Optional.of(3);
    out.add(UpstreamCase.of(AREA, file, t + "parallelism = completions; no progress", ready(3, three, 0, 0, false)));
    out.add(UpstreamCase.of(AREA, file, t + "parallelism = completions; not enough progress", ready(3, three, 1, 1,
        false)));
    out.add(UpstreamCase.of(AREA, file, t + "parallelism = completions; all ready", ready(3, three, 3, 0, true)));
    out.add(UpstreamCase.of(AREA, file, t + "parallelism = completions; some ready, some succeeded", ready(3, three, 2,
        1, true)));
    out.add(UpstreamCase.of(AREA, file, t + "parallelism = completions; all succeeded", ready(3, three, 0, 3, true)));
    out.add(UpstreamCase.of(AREA, file, t + "parallelism < completions; reaching parallelism is enough", ready(2, three,
        2, 0, true)));
    out.add(UpstreamCase.of(AREA, file, t + "parallelism > completions; reaching completions is enough", ready(3,
        Optional.of(2), 2, 0, true)));
    out.add(UpstreamCase.of(AREA, file, t + "parallelism specified only; not enough progress", ready(3, Optional.empty(),
        2, 0, false)));
    out.add(UpstreamCase.of(AREA, file, t + "parallelism specified only; all ready", ready(3, Optional.empty(), 3, 0,
        true)));
  }

  private static Runnable waits(Backoff b, List<Integer> iterations, List<Duration> want) {
    return () -> assertThat(iterations.stream().map(i -> b.waitTime(i, () -> 0.0)).toList()).isEqualTo(want);
  }

  private static Duration ms(long m) {
    return Duration.ofMillis(m);
  }

  private static void backoff(List<UpstreamCase> out) {
    String file = "pkg/util/wait/backoff_test.go";
    String t = "TestBackoff_WaitTime: ";
    Backoff msToS = new Backoff(ms(1), Duration.ofSeconds(1), 2, 0);
    out.add(UpstreamCase.of(AREA, file, t + "iteration zero returns zero", waits(msToS, List.of(0), List.of(ms(0)))));
    out.add(UpstreamCase.of(AREA, file, t + "negative iteration returns zero", waits(msToS, List.of(-3),
        List.of(ms(0)))));
    out.add(UpstreamCase.of(AREA, file, t + "simple exponential (factor=2)", waits(msToS, List.of(4), List.of(ms(8)))));
    out.add(UpstreamCase.of(AREA, file, t + "caps at limit", waits(new Backoff(Duration.ofSeconds(1),
        Duration.ofSeconds(5), 2, 0), List.of(4), List.of(Duration.ofSeconds(5)))));
    out.add(UpstreamCase.of(AREA, file, t + "very large iteration still returns cap", waits(msToS, List.of(1000),
        List.of(Duration.ofSeconds(1)))));
    out.add(UpstreamCase.of(AREA, file, t + "very large iteration, no cap", waits(new Backoff(ms(1), Duration.ZERO, 3, 0),
        List.of(1000), List.of(Duration.ofNanos((long) (Long.MAX_VALUE / Math.ceil(3)))))));
    String c = "TestBackoff_WaitTime_Consecutive: ";
    out.add(UpstreamCase.of(AREA, file, c + "two subsequent calls", waits(msToS, List.of(1, 2), List.of(ms(1), ms(2)))));
    out.add(UpstreamCase.of(AREA, file, c + "reset after first call", waits(msToS, List.of(5, 1), List.of(ms(16),
        ms(1)))));
    out.add(UpstreamCase.of(AREA, file, c + "series of same calls", waits(msToS, List.of(5, 5, 5, 5), List.of(ms(16),
        ms(16), ms(16), ms(16)))));
  }

  private static WaitForPodsReady requeuing(Duration timeout, Optional<Integer> limit, int base, int max) {
    return new WaitForPodsReady(timeout, false, new WaitForPodsReady.RequeuingStrategy(
        WaitForPodsReady.Timestamp.EVICTION, limit, base, max), Optional.empty());
  }

  /**
   * A timeout case: admitted 5 minutes ago with a 3 s timeout and no PodsReady, so the timeout is
   * exceeded; then what the controller does with the requeue count so far.
   */
  private static PodsReadyTimeout.Outcome exceed(WaitForPodsReady config, int count) {
    Optional<NotReadyTimeout.Waiting> w = NotReadyTimeout.check(Optional.of(config),
        Optional.of(NOW.minus(Duration.ofMinutes(5))), Optional.empty(), NOW);
    assertThat(w).as("timeout exceeded").contains(new NotReadyTimeout.Waiting(PodsReadyCondition.WAIT_FOR_START,
        Duration.ZERO));
    return PodsReadyTimeout.exceeded("ns/wl", w.get().cause(), count, config, NOW, () -> 0.0);
  }

  private static void requeue(List<UpstreamCase> out) {
    String file = "pkg/controller/core/workload_controller_requeue_test.go";
    String t = "TestReconcileRequeue: ";
    out.add(UpstreamCase.of(AREA, file, t + "increment re-queue count", () -> {
      var o = exceed(requeuing(Duration.ofSeconds(3), Optional.of(100), 10, 3600), 3);
      // 10s * 2^(4-1) = 80s
      assertThat(o).isEqualTo(new PodsReadyTimeout.Evicted(PodsReadyCondition.WAIT_FOR_START,
          "Exceeded the PodsReady timeout ns/wl", 4, NOW.plusSeconds(80)));
      assertThat(o.eventReason()).isEqualTo("EvictedDueToPodsReadyTimeout");
    }));
    out.add(UpstreamCase.of(AREA, file, t + "wait time should be limited to backoffMaxSeconds", () -> {
      var o = exceed(requeuing(Duration.ofSeconds(3), Optional.of(100), 10, 7200), 10);
      assertThat(o).isEqualTo(new PodsReadyTimeout.Evicted(PodsReadyCondition.WAIT_FOR_START,
          "Exceeded the PodsReady timeout ns/wl", 11, NOW.plusSeconds(7200)));
    }));
    WorkloadCondition evicted = new WorkloadCondition("Requeued", false, PodsReadyTimeout.EVICTED_BY_PODS_READY_TIMEOUT,
        "Exceeded the PodsReady timeout ns", NOW);
    out.add(UpstreamCase.of(AREA, file, t + "should keep the WorkloadRequeued condition until the WaitForPodsReady "
        + "backoff expires", () -> assertThat(PodsReadyTimeout.requeued(evicted, Optional.of(NOW.plusSeconds(60)), NOW))
            .isEqualTo(evicted)));
    out.add(UpstreamCase.of(AREA, file, t + "should set the WorkloadRequeued condition when the WaitForPodsReady "
        + "backoff expires", () -> {
          WorkloadCondition c = PodsReadyTimeout.requeued(evicted, Optional.empty(), NOW);
          assertThat(List.of(c.type(), c.status(), c.reason(), c.message())).containsExactly("Requeued", true,
              "BackoffFinished", "The workload backoff was finished");
        }));
    String e = "pkg/controller/core/workload_controller_eviction_test.go";
    String te = "TestReconcileEviction: ";
    out.add(UpstreamCase.of(AREA, e, te + "trigger deactivation of workload when reaching backoffLimitCount", () ->
        assertThat(exceed(requeuing(Duration.ofSeconds(3), Optional.of(1), 60, 3600), 1)).isEqualTo(
            new PodsReadyTimeout.Deactivated("exceeding the maximum number of re-queuing retries"))));
    out.add(UpstreamCase.of(AREA, e, te + "with reason PodsReady; [backoffLimitCount: 100] should set the Evicted "
        + "condition with Deactivated reason, exceeded the maximum number of requeue retries"
        + "when the .spec.active is False, Admitted, the Workload has Evicted=False and DeactivationTarget=True "
        + "condition, and the requeueState.count equals to backoffLimitCount", () -> {
          var o = (PodsReadyTimeout.Deactivated) exceed(requeuing(Duration.ofSeconds(3), Optional.of(100), 10, 3600),
              100);
          assertThat(o.evictedReason()).isEqualTo("DeactivatedDueToRequeuingLimitExceeded");
          assertThat(o.message()).isEqualTo("The workload is deactivated due to exceeding the maximum number of "
              + "re-queuing retries");
          assertThat(o.eventReason()).isEqualTo("EvictedDueToDeactivatedDueToRequeuingLimitExceeded");
        }));
  }

  /**
   * A TestCachePodsReadyForAllAdmittedWorkloads case: the workloads holding quota (name to PodsReady,
   * empty when it has none) after the entry's setup and operation, and whether all are ready.
   */
  private static Runnable cache(Consumer<Map<String, Optional<WorkloadCondition>>> setupAndOperation,
      boolean wantReady) {
    return () -> {
      Map<String, Optional<WorkloadCondition>> holders = new TreeMap<>();
      setupAndOperation.accept(holders);
      assertThat(AdmissionBlock.allReady(holders.values())).isEqualTo(wantReady);
      // Blocked exactly when not all are ready, with blockAdmission on.
      WaitForPodsReady block = new WaitForPodsReady(Duration.ofMinutes(5), true,
          WaitForPodsReady.RequeuingStrategy.DEFAULT, Optional.empty());
      assertThat(AdmissionBlock.blocked(Optional.of(block), holders.values(), NOW).map(WorkloadCondition::reason))
          .isEqualTo(wantReady ? Optional.empty() : Optional.of("WaitingForPodsReady"));
    };
  }

  private static Optional<WorkloadCondition> ready(boolean status) {
    return Optional.of(podsReady(status, "", NOW));
  }

  private static void allReady(List<UpstreamCase> out) {
    String file = "pkg/cache/scheduler/cache_test.go";
    String t = "TestCachePodsReadyForAllAdmittedWorkloads: ";
    out.add(UpstreamCase.of(AREA, file, t + "empty cache", cache(h -> { }, true)));
    out.add(UpstreamCase.of(AREA, file, t + "add Workload without PodsReady condition",
        cache(h -> h.put("/a", Optional.empty()), false)));
    out.add(UpstreamCase.of(AREA, file, t + "add Workload with PodsReady=False", cache(h -> h.put("/a", ready(false)),
        false)));
    out.add(UpstreamCase.of(AREA, file, t + "add Workload with PodsReady=True", cache(h -> h.put("/a", ready(true)),
        true)));
    out.add(UpstreamCase.of(AREA, file, t + "update workload to have PodsReady=True", cache(h -> {
      h.put("/a", Optional.empty());
      h.put("/a", ready(true));
    }, true)));
    out.add(UpstreamCase.of(AREA, file, t + "update workload to have PodsReady=False", cache(h -> {
      h.put("/a", ready(true));
      h.put("/a", ready(false));
    }, false)));
    out.add(UpstreamCase.of(AREA, file, t + "update second workload to have PodsReady=True", cache(h -> {
      h.put("/a", ready(true));
      h.put("/b", Optional.empty());
      h.put("/b", ready(true));
    }, true)));
    out.add(UpstreamCase.of(AREA, file, t + "delete workload with PodsReady=False", cache(h -> {
      h.put("/a", ready(false));
      h.remove("/a");
    }, true)));
  }
}
