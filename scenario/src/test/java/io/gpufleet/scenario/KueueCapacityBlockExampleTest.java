package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.metrics.CardSpan;
import io.gpufleet.sim.metrics.Metrics;
import io.gpufleet.sim.metrics.TeamCost;
import io.gpufleet.sim.record.RunRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code examples/scenarios/kueue-capacity-block.yaml} end to end: a training and an inference
 * ClusterQueue in one cohort share a p5.48xlarge Capacity Block (flavor {@code p5-reserved}) and
 * spot g6 (flavor {@code g6-spot}). As Kueue's docs ({@code site/content/en/docs/concepts/cluster_queue.md},
 * "Flavors and borrowing semantics", "Preemption") describe it: flavors are tried in
 * order, so the inference Job that no longer fits its g6 quota borrows the idle block's quota through
 * the cohort; with {@code reclaimWithinCohort: Any} the training Job preempts the borrower to get its
 * nominal quota back ("due to reclamation within the cohort", {@code pkg/scheduler/preemption/preemption.go});
 * the borrower waits and borrows again once training is done. The cost of the GPUs is split by
 * namespace as they were held ({@link Metrics#teamCost()}).
 */
class KueueCapacityBlockExampleTest {

  /** The block's fee per instance-hour, as the scenario states it (EC2 Capacity Blocks pricing). */
  static final double P5_BLOCK_HOUR = 39.33;
  /** g6.xlarge on demand in us-east-1 ($0.8048), spot at the catalogue's 0.7 of it (Pricing.java, KWOK's ratio). */
  static final double G6_SPOT_HOUR = 0.8048 * 0.7;

  static SimulationResult result;

  @BeforeAll
  static void run() throws Exception {
    result = TeamCostScenarioTest.run("kueue-capacity-block.yaml");
  }

  static List<RunRecord.Entry> kueue(String workload, String reason) {
    return KueueTwoTeamsExampleTest.kueue(result, workload, reason);
  }

  @Test
  void everyExpectationPassesWithNoInvariantBroken() {
    KueueTwoTeamsExampleTest.assertEveryExpectationPassesWithNoInvariantBroken(result);
  }

  @Test
  void inferenceBorrowsTheIdleBlockTrainingReclaimsItAndInferenceBorrowsAgainWhenTrainingEnds() {
    // Both inference Jobs are admitted at once: the first in its own g6 quota, the second in the block's flavor.
    assertThat(kueue("inference/batch-infer", "Admitted")).hasSize(1);
    assertThat(kueue("inference/eval", "Admitted").getFirst().time())
        .isEqualTo(kueue("inference/eval", "CreatedWorkload").getFirst().time());
    // The borrower's pods run on the block's p5, batch-infer's on spot g6.
    assertThat(nodesOf("inference/eval-")).isNotEmpty().allSatisfy(n -> assertThat(n).startsWith("training-"));
    assertThat(nodesOf("inference/batch-infer-")).hasSize(4).allSatisfy(n -> assertThat(n).startsWith("inference-spot-"));

    // Training preempts the borrower at submission, as reclamation within the cohort.
    Instant submitted = kueue("training/pretrain", "CreatedWorkload").getFirst().time();
    RunRecord.Entry preempted = kueue("inference/eval", "Preempted").getFirst();
    assertThat(preempted.time()).isEqualTo(submitted);
    assertThat(preempted.message()).contains("due to reclamation within the cohort")
        .contains("preemptor path: /gpus/training").contains("preemptee path: /gpus/inference");
    assertThat(kueue("training/pretrain", "Pending").getFirst().message())
        .contains("insufficient unused quota for nvidia.com/gpu in flavor p5-reserved, 4 more needed")
        .contains("Pending the preemption of 1 workload");
    // Admitted once the victim's pods are gone (the default 30 s grace period), nothing else preempted.
    Instant trainingAdmitted = kueue("training/pretrain", "Admitted").getFirst().time();
    assertThat(Duration.between(submitted, trainingAdmitted)).isEqualTo(Duration.ofSeconds(30));
    assertThat(kueue("inference/batch-infer", "Preempted")).isEmpty();

    // The evicted borrower waits while training holds the block and inference's g6 quota is full, and
    // is admitted again the moment the training Job completes.
    assertThat(kueue("inference/eval", "Pending")).anySatisfy(p -> assertThat(p.message())
        .contains("couldn't assign flavors to pod set main").contains("in flavor g6-spot"));
    RunRecord.Entry trainingDone = result.record().about("Job/training/pretrain").stream()
        .filter(e -> e.message().startsWith("Job complete")).findFirst().orElseThrow();
    List<RunRecord.Entry> evalAdmitted = kueue("inference/eval", "Admitted");
    assertThat(evalAdmitted).hasSize(2);
    assertThat(evalAdmitted.get(1).time()).isEqualTo(trainingDone.time());
  }

  @Test
  void eachNamespacePaysForTheCardsItHeldAtTheirNodesPrice() {
    Metrics m = result.metrics();
    TeamCost t = m.teamCost();
    assertThat(t.byNamespace()).containsOnlyKeys("inference", "training");
    double inferenceOnP5 = hours(m, "inference/", "training-");
    double inferenceOnG6 = hours(m, "inference/", "inference-spot-");
    double trainingOnP5 = hours(m, "training/", "training-");
    assertThat(inferenceOnP5).as("inference held block GPUs while it borrowed").isPositive();
    assertThat(hours(m, "training/", "inference-spot-")).isZero();

    // A p5.48xlarge's 8 cards share the block's fee; a g6.xlarge's one card is the spot price.
    TeamCost.Share training = t.byNamespace().get("training");
    assertThat(training.gpuHours()).isCloseTo(trainingOnP5, within(1e-9));
    assertThat(training.dollars()).isCloseTo(trainingOnP5 * P5_BLOCK_HOUR / 8, within(1e-6));
    TeamCost.Share inference = t.byNamespace().get("inference");
    assertThat(inference.gpuHours()).isCloseTo(inferenceOnP5 + inferenceOnG6, within(1e-9));
    assertThat(inference.dollars()).isCloseTo(inferenceOnP5 * P5_BLOCK_HOUR / 8 + inferenceOnG6 * G6_SPOT_HOUR,
        within(1e-6));

    double charged = t.byNamespace().values().stream().mapToDouble(TeamCost.Share::dollars).sum();
    assertThat(charged + t.idle().dollars()).as("every dollar of the GPU nodes is charged or idle")
        .isCloseTo(m.totalCost(), within(1e-6));
  }

  /** Card-hours that pods whose name starts with {@code podPrefix} held on nodes named {@code nodePrefix}…. */
  static double hours(Metrics m, String podPrefix, String nodePrefix) {
    return m.cardSpans().stream().filter(s -> s.pod().startsWith(podPrefix) && s.node().startsWith(nodePrefix))
        .mapToDouble(s -> Duration.between(s.start(), s.end().orElse(m.end())).toMillis() / 3_600_000.0
            * s.card().share()).sum();
  }

  static List<String> nodesOf(String podPrefix) {
    return result.metrics().cardSpans().stream().filter(s -> s.pod().startsWith(podPrefix)).map(CardSpan::node)
        .distinct().toList();
  }
}
