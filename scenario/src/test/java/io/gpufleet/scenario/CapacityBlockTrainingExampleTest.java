package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.scenario.ExpectationOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code examples/scenarios/capacity-block-training.yaml} end to end: its expectations pass, and the
 * run does what the AWS provider does with a Capacity Block and an ODCR.
 */
class CapacityBlockTrainingExampleTest {

  static final Path FILE = Path.of("..", "examples", "scenarios", "capacity-block-training.yaml");
  static SimulationResult result;

  @BeforeAll
  static void run() throws Exception {
    ScenarioFile f = ScenarioReader.read(FILE.getFileName().toString(), Files.readString(FILE),
        ScenarioSources.directory(FILE.getParent()));
    result = Simulation.run(f.scenario());
  }

  @Test
  void everyExpectationPassesWithNoInvariantBroken() {
    assertThat(result.expectations()).isNotEmpty().allSatisfy(e -> assertThat(e.passed()).as(e.description() + ": "
        + e.detail()).isTrue());
    assertThat(result.violations()).isEmpty();
  }

  static List<RunRecord.Entry> of(RunRecord.Kind kind, String subjectPrefix) {
    return result.record().of(kind).stream().filter(e -> e.subject().startsWith(subjectPrefix)).toList();
  }

  @Test
  void theBlocksTwoInstancesLaunchWhenItStartsAndAreDeletedFortyMinutesBeforeItEnds() {
    List<RunRecord.Entry> launched = of(RunRecord.Kind.NODECLAIM_LAUNCHED, "training-");
    assertThat(launched).hasSize(2).allSatisfy(e -> {
      assertThat(e.time()).isEqualTo(Instant.parse("2026-01-05T11:30:01Z")); // the block starts at 11:30
      assertThat(e.message()).startsWith("p5.48xlarge reserved in us-east-1a");
    });
    assertThat(of(RunRecord.Kind.NODECLAIM_DELETING, "training-")).hasSize(2).allSatisfy(e ->
        assertThat(e.time()).isEqualTo(Instant.parse("2026-01-06T11:30:00Z").minus(Duration.ofMinutes(40))));
  }

  /**
   * The training pool's cost is the block's stated price for each instance's own lifetime, from its
   * launch to its termination in the record: neither the offering's near-zero price nor on-demand.
   */
  @Test
  void reservedInstancesAreBilledAtTheReservationsPrice() {
    double expected = 0;
    for (RunRecord.Entry l : of(RunRecord.Kind.NODECLAIM_LAUNCHED, "training-")) {
      Instant gone = result.record().about(l.subject()).stream()
          .filter(e -> e.kind() == RunRecord.Kind.NODE_TERMINATED).map(RunRecord.Entry::time).findFirst()
          .orElse(result.end());
      expected += 39.33 * Duration.between(l.time(), gone).toMillis() / 3_600_000.0;
    }
    assertThat(expected).isGreaterThan(39.33 * 2 * 23);
    assertThat(result.metrics().costByNodePool().get("training")).isCloseTo(expected,
        org.assertj.core.data.Offset.offset(0.01));
  }

  @Test
  void theOdcrTakesOneInstanceAndTheNextFallsBackToOnDemand() {
    List<RunRecord.Entry> launched = of(RunRecord.Kind.NODECLAIM_LAUNCHED, "inference-on-demand-");
    assertThat(launched).extracting(RunRecord.Entry::message).containsExactly(
        "g6.xlarge reserved in us-east-1a at $0.8048/h", "g6.xlarge on-demand in us-east-1a at $0.8048/h");
    // Strict reserved-offering mode: the claim left without the reservation waits for the pod's 10 s
    // requeue and a batch (1 s idle) rather than falling back in the same round.
    assertThat(Duration.between(launched.get(0).time(), launched.get(1).time())).isEqualTo(Duration.ofSeconds(11));
    assertThat(result.expectations()).extracting(ExpectationOutcome::description)
        .contains("both critical replicas run on on-demand nodes, none reserved");
  }
}
