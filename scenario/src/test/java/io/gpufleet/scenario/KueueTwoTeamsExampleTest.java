package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code examples/scenarios/kueue-two-teams.yaml} end to end, against Kueue's own account of the
 * same set-up: a ClusterQueue borrows its cohort's unused quota (docs, concepts/cluster_queue.md,
 * "Cohort" and "Flavors and borrowing semantics"); a workload that does not fit waits, QuotaReserved false, with the
 * flavor assigner's message ("insufficient unused quota for R in flavor F, N more needed",
 * {@code pkg/scheduler/flavorassigner/flavorassigner.go}); with {@code reclaimWithinCohort: Never}
 * (the default) nothing is preempted, and the waiting workload is admitted when the borrower's
 * workload finishes and its quota is released. Event texts as {@code pkg/scheduler/scheduler.go}
 * records them (QuotaReserved, Admitted).
 */
class KueueTwoTeamsExampleTest {

  static final Path FILE = Path.of("..", "examples", "scenarios", "kueue-two-teams.yaml");
  static SimulationResult result;

  @BeforeAll
  static void run() throws Exception {
    ScenarioFile f = ScenarioReader.read(FILE.getFileName().toString(), Files.readString(FILE),
        ScenarioSources.directory(FILE.getParent()));
    assertThat(f.warnings()).isEmpty();
    result = Simulation.run(f.scenario());
  }

  static List<RunRecord.Entry> kueue(String workload, String reason) {
    return kueue(result, workload, reason);
  }

  /** Kueue's events of a reason about a Workload (named after its Job, {@code namespace/name}). */
  static List<RunRecord.Entry> kueue(SimulationResult r, String workload, String reason) {
    return r.record().of(RunRecord.Kind.KUEUE_EVENT).stream().filter(e -> e.subject().equals(workload))
        .filter(e -> e.message().startsWith(reason + ": ")).toList();
  }

  @Test
  void everyExpectationPassesWithNoInvariantBroken() {
    assertEveryExpectationPassesWithNoInvariantBroken(result);
  }

  static void assertEveryExpectationPassesWithNoInvariantBroken(SimulationResult r) {
    assertThat(r.expectations()).isNotEmpty().allSatisfy(e -> assertThat(e.passed()).as(e.description() + ": "
        + e.detail()).isTrue());
    assertThat(r.violations()).isEmpty();
  }

  @Test
  void teamABorrowsAtOnceTeamBWaitsWithKueuesMessageAndIsAdmittedWhenTeamAFinishes() {
    RunRecord.Entry a = kueue("team-a/train-a", "QuotaReserved").getFirst();
    assertThat(a.message()).isEqualTo("QuotaReserved: Quota reserved in ClusterQueue team-a, wait time since queued "
        + "was 0s");
    assertThat(a.time()).isEqualTo(result.start());
    assertThat(kueue("team-a/train-a", "Admitted")).singleElement().extracting(RunRecord.Entry::message)
        .isEqualTo("Admitted: Admitted by ClusterQueue team-a, wait time since reservation was 0s");

    List<RunRecord.Entry> pending = kueue("team-b/train-b", "Pending");
    assertThat(pending).singleElement().extracting(RunRecord.Entry::message).isEqualTo("Pending: couldn't assign "
        + "flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor a10g, 2 more needed");
    // No preemption under the default reclaimWithinCohort: Never.
    assertThat(kueue("team-a/train-a", "Preempted")).isEmpty();

    // Team B is admitted at the moment team A's Job completes (its last pod succeeds after 30m).
    RunRecord.Entry done = result.record().about("Job/team-a/train-a").stream()
        .filter(e -> e.message().startsWith("Job complete")).findFirst().orElseThrow();
    RunRecord.Entry b = kueue("team-b/train-b", "Admitted").getFirst();
    assertThat(b.time()).isEqualTo(done.time());
    RunRecord.Entry bQueued = kueue("team-b/train-b", "CreatedWorkload").getFirst();
    assertThat(kueue("team-b/train-b", "QuotaReserved").getFirst().message()).isEqualTo("QuotaReserved: Quota reserved "
        + "in ClusterQueue team-b, wait time since queued was " + Duration.between(bQueued.time(), b.time()).toSeconds()
        + "s");
    assertThat(Duration.between(a.time(), done.time())).isGreaterThanOrEqualTo(Duration.ofMinutes(30));
    // Before admission the suspended Job had no pods.
    assertThat(result.record().of(RunRecord.Kind.POD_CREATED).stream()
        .filter(e -> e.subject().startsWith("team-b/")).map(RunRecord.Entry::time))
        .allSatisfy(t -> assertThat(t).isAfterOrEqualTo(b.time()));
  }
}
