package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code schedule --explain} on a Pending pod: each node's reason as kube-scheduler's diagnosis records
 * it (the per-node statuses its FailedScheduling message counts), and what would make the pod fit, as
 * a run of the same manifests with their NodePools answers it. Real manifests from examples/.
 */
class ScheduleExplainTest {

  private static final Path EXAMPLES = Path.of("..", "examples");
  /** One 1-GPU node tainted dedicated=gpu, two CPU nodes, a GPU pod without the toleration; no NodePool. */
  private static final Path TAINT = EXAMPLES.resolve("scheduling/gpu-taint.yaml");
  /** aws/karpenter-provider-aws issue 7754: a NodePool of g5 launches a g5.2xlarge for the 1-GPU pod. */
  private static final Path G5 = EXAMPLES.resolve("real-world/20-karpenter-7754-g5-2xlarge-works");
  /** The same issue with g4ad (AMD GPUs, no nvidia.com/gpu): Karpenter launches nothing. */
  private static final Path G4AD = EXAMPLES.resolve("real-world/19-karpenter-7754-g4ad-no-nvidia");

  @Test
  void eachNodeHasItsOwnReasonWhereTheMessageOnlyCountsThem() {
    CliRun run = CliRun.of("schedule", "-f", TAINT.toString(), "--explain");
    assertThat(run.exitCode()).as(run.err()).isZero();
    // The message counts "1 node(s) had untolerated taint(s), 2 Insufficient nvidia.com/gpu"; the
    // diagnosis says which: the GPU node carries the taint, the CPU nodes have no GPU.
    assertThat(run.out())
        .containsPattern("\npod/default/inference\n  gpu-node-1 +node\\(s\\) had untolerated taint\\(s\\)\n")
        .containsPattern("\n  cpu-node-1, cpu-node-2 +Insufficient nvidia.com/gpu\n")
        .contains("  would fit: nothing from Karpenter: no NodePool among the manifests, so it launches no node\n");
    // Without the flag, the message alone, as before.
    CliRun plain = CliRun.of("schedule", "-f", TAINT.toString());
    assertThat(plain.out()).doesNotContain("Why each Pending pod").doesNotContain("would fit");
  }

  @Test
  void aNodePoolThatCanHostThePodNamesTheInstanceKarpenterLaunches() {
    CliRun run = CliRun.of("schedule", "-f", G5.toString(), "--explain");
    assertThat(run.exitCode()).as(run.err()).isZero();
    // The case's expectation (cases.yaml): launches a g5.2xlarge.
    assertThat(run.out()).containsPattern("would fit: Karpenter would launch g5\\.2xlarge \\S+ in \\S+ at \\$[0-9.]+/h "
        + "from NodePool gpu \\(nodeclaim/gpu-[a-z0-9]+\\); the pod binds there at \\+00:0\\d:\\d\\d\n");
    // --explain uses the NodePool, so it is not reported as skipped.
    assertThat(run.err()).doesNotContain("NodePool \"gpu\" is not used by schedule");
  }

  @Test
  void aNodePoolThatCannotSaysKarpentersOwnFailedScheduling() {
    CliRun run = CliRun.of("schedule", "-f", G4AD.toString(), "--explain");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("would fit: nothing from Karpenter, which says: Failed to schedule pod, "
        + "incompatible with nodepool \"gpu\"");
  }

  @Test
  void theJsonOutputCarriesTheDiagnosisAndKarpentersAnswer() {
    CliRun run = CliRun.of("schedule", "-f", TAINT.toString(), "-o", "json", "--explain");
    assertThat(run.exitCode()).as(run.err()).isZero();
    JsonNode pod = JsonMapper.builder().build().readTree(run.out()).get("pods").get(0);
    assertThat(pod.get("phase").asString()).isEqualTo("Pending");
    List<String> groups = new ArrayList<>();
    int counted = 0;
    for (JsonNode g : pod.get("diagnosis")) {
      groups.add(g.get("nodes").toString() + " " + g.get("reasons").toString());
      counted += g.get("count").asInt();
    }
    assertThat(groups).containsExactly("[\"gpu-node-1\"] [\"node(s) had untolerated taint(s)\"]",
        "[\"cpu-node-1\",\"cpu-node-2\"] [\"Insufficient nvidia.com/gpu\"]");
    assertThat(counted).as("every node of 0/3 has its reason").isEqualTo(3);
    assertThat(pod.get("karpenter").get("outcome").asString()).isEqualTo("NO_NODEPOOL");

    CliRun g5 = CliRun.of("schedule", "-f", G5.toString(), "-o", "json", "--explain");
    JsonNode k = JsonMapper.builder().build().readTree(g5.out()).get("pods").get(0).get("karpenter");
    assertThat(k.get("outcome").asString()).isEqualTo("LAUNCHED");
    assertThat(k.get("nodePool").asString()).isEqualTo("gpu");
    assertThat(k.get("launch").asString()).startsWith("g5.2xlarge ");
    // Without --explain the JSON is as it was.
    CliRun plain = CliRun.of("schedule", "-f", TAINT.toString(), "-o", "json");
    assertThat(plain.out()).doesNotContain("diagnosis").doesNotContain("karpenter");
  }
}
