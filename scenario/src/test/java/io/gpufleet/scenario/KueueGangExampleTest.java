package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code examples/scenarios/kueue-gang.yaml} end to end: Kueue's waitForPodsReady in front of
 * Karpenter, with the outcome Kueue's page states
 * ({@code site/content/en/docs/tasks/manage/setup_wait_for_pods_ready.md}): a Workload whose pods are
 * not all ready within {@code timeout} of its admission is evicted and requeued, "after approximately
 * 60, 120, 240, ... seconds", until its requeues reach {@code backoffLimitCount} and "Kueue
 * deactivates the Workload"; with {@code blockAdmission} the workloads are admitted one at a time.
 * The messages are Kueue's ({@code workload_controller.go} "Exceeded the PodsReady timeout %s",
 * {@code evict.go} "Evicted" + "DueTo" + reason events). Without a Configuration the twin runs
 * Kueue's defaults (30 minutes, blockAdmission false).
 */
class KueueGangExampleTest {

  static final String TRAIN = "research/train";
  static final String EVAL = "research/eval";
  static final Duration TIMEOUT = Duration.ofMinutes(10);
  static SimulationResult result;

  @BeforeAll
  static void run() throws Exception {
    result = TeamCostScenarioTest.run("kueue-gang.yaml");
  }

  static List<RunRecord.Entry> kueue(SimulationResult r, String workload, String reason) {
    return KueueTwoTeamsExampleTest.kueue(r, workload, reason);
  }

  static List<Instant> times(List<RunRecord.Entry> entries) {
    return entries.stream().map(RunRecord.Entry::time).toList();
  }

  @Test
  void everyExpectationPassesWithNoInvariantBroken() {
    KueueTwoTeamsExampleTest.assertEveryExpectationPassesWithNoInvariantBroken(result);
  }

  @Test
  void eachAttemptIsEvictedWhenItsTimeoutEndsAndRequeuedAfterTheDoublingBackoffUntilDeactivated() {
    List<Instant> admitted = times(kueue(result, TRAIN, "Admitted"));
    List<RunRecord.Entry> evicted = kueue(result, TRAIN, "EvictedDueToPodsReadyTimeout");
    List<RunRecord.Entry> deactivated = kueue(result, TRAIN, "EvictedDueToDeactivatedDueToRequeuingLimitExceeded");
    assertThat(admitted).hasSize(3);
    assertThat(evicted).hasSize(2).allSatisfy(e -> assertThat(e.message())
        .isEqualTo("EvictedDueToPodsReadyTimeout: Exceeded the PodsReady timeout research/train"));
    assertThat(deactivated).singleElement().extracting(RunRecord.Entry::message).isEqualTo(
        "EvictedDueToDeactivatedDueToRequeuingLimitExceeded: The workload is deactivated due to exceeding the maximum "
            + "number of re-queuing retries");
    // Each attempt ends exactly when its timeout, counted from its admission, runs out.
    assertThat(evicted.get(0).time()).isEqualTo(admitted.get(0).plus(TIMEOUT));
    assertThat(evicted.get(1).time()).isEqualTo(admitted.get(1).plus(TIMEOUT));
    assertThat(deactivated.getFirst().time()).isEqualTo(admitted.get(2).plus(TIMEOUT));
    // Requeued when its backoff ends: base 60 s doubled per requeue (60 s, then 120 s), with Kueue's
    // jitter of at most 0.0001 of it, stored in whole seconds.
    List<Instant> backoffEnds = times(kueue(result, TRAIN, "BackoffFinished"));
    assertThat(backoffEnds).hasSize(2);
    for (int n = 1; n <= 2; n++) {
      Duration backoff = Duration.ofSeconds(60L << (n - 1));
      Duration waited = Duration.between(evicted.get(n - 1).time(), backoffEnds.get(n - 1));
      assertThat(waited).as("backoff %d", n).isBetween(backoff.minusSeconds(1), backoff.plus(backoff.dividedBy(10_000)));
      assertThat(admitted.get(n)).as("admitted again once backoff %d ends", n).isEqualTo(backoffEnds.get(n - 1));
    }
    assertThat(kueue(result, TRAIN, "QuotaReserved").get(1).message()).endsWith("wait time since queued was 60s");
  }

  @Test
  void theGangNeverHasAllFourPodsReadyAndKarpenterStopsAtTheNodePoolLimit() {
    assertThat(kueue(result, TRAIN, "Started")).as("PodsReady never becomes True").isEmpty();
    List<Instant> admitted = times(kueue(result, TRAIN, "Admitted"));
    List<Instant> ends = times(result.record().of(RunRecord.Kind.KUEUE_EVENT).stream()
        .filter(e -> e.subject().equals(TRAIN) && e.message().startsWith("Evicted")).toList());
    for (int i = 0; i < 3; i++) {
      Instant from = admitted.get(i);
      Instant to = ends.get(i);
      long ready = result.record().of(RunRecord.Kind.POD_READY).stream().filter(e -> e.subject().startsWith(TRAIN + "-")
          && !e.time().isBefore(from) && !e.time().isAfter(to)).count();
      assertThat(ready).as("pods of attempt %d ready", i + 1).isLessThan(4);
    }
    assertThat(result.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED)).hasSize(3);
    assertThat(result.record().of(RunRecord.Kind.KARPENTER_EVENT)).anySatisfy(e -> assertThat(e.message())
        .contains("exceed limits for nodepool (NodePool=gpu)"));
    // Deactivated: its Job stays suspended, no pod of it is left and it is never admitted again.
    Instant deactivated = ends.get(2);
    assertThat(result.record().of(RunRecord.Kind.POD_CREATED).stream().filter(e -> e.subject().startsWith(TRAIN + "-")
        && e.time().isAfter(deactivated))).isEmpty();
  }

  @Test
  void blockAdmissionHoldsTheEvalJobUntilNoAdmittedWorkloadWaitsForItsPods() {
    RunRecord.Entry held = kueue(result, EVAL, "WaitingForPodsReady").getFirst();
    assertThat(held.message()).isEqualTo("WaitingForPodsReady: waiting for all admitted workloads to be in PodsReady "
        + "condition");
    assertThat(held.time()).isEqualTo(kueue(result, EVAL, "CreatedWorkload").getFirst().time());
    // Admitted once the evicted gang's pods are gone and its quota released, before the gang's requeue.
    Instant evalAdmitted = kueue(result, EVAL, "Admitted").getFirst().time();
    Instant firstEviction = kueue(result, TRAIN, "EvictedDueToPodsReadyTimeout").getFirst().time();
    assertThat(evalAdmitted).isAfter(firstEviction).isBefore(kueue(result, TRAIN, "Admitted").get(1).time());
    // The gang's second admission waited for the eval Job's PodsReady (Started) first.
    assertThat(kueue(result, EVAL, "Started").getFirst().time()).isBeforeOrEqualTo(kueue(result, TRAIN, "Admitted")
        .get(1).time());
    assertThat(result.record().about("Job/" + EVAL)).anySatisfy(e -> assertThat(e.message()).startsWith("Job complete"));
  }

  @Test
  void withoutAConfigurationKueuesDefaultsApplyThirtyMinutesAndNoBlocking() throws Exception {
    Path file = Path.of("..", "examples", "scenarios", "kueue-gang.yaml");
    String text = Files.readString(file);
    String config = text.substring(text.indexOf("  - apiVersion: config.kueue.x-k8s.io/v1beta1"),
        text.indexOf("  - apiVersion: kueue.x-k8s.io/v1beta2"));
    // The example's cluster without its Configuration, and its two Jobs as it submits them; its
    // expectations are the Configuration's, so they are left out.
    String jobs = text.substring(text.indexOf("    - apply:"), text.indexOf("    - wait: 5m"));
    String plain = text.substring(0, text.indexOf("  steps:")).replace(config, "")
        + "  steps:\n  - id: \"1\"\n    title: defaults\n    actions:\n" + jobs + "    - wait: 45m\n";
    SimulationResult r = Simulation.run(ScenarioReader.read("kueue-gang-defaults.yaml", plain,
        ScenarioSources.directory(file.getParent())).scenario());
    Instant admitted = kueue(r, TRAIN, "Admitted").getFirst().time();
    assertThat(kueue(r, TRAIN, "EvictedDueToPodsReadyTimeout").getFirst().time())
        .isEqualTo(admitted.plus(Duration.ofMinutes(30)));
    // blockAdmission defaults to false: the eval Job is admitted when submitted, a minute in.
    assertThat(kueue(r, EVAL, "WaitingForPodsReady")).isEmpty();
    assertThat(kueue(r, EVAL, "Admitted").getFirst().time()).isEqualTo(admitted.plus(Duration.ofMinutes(1)));
  }
}
