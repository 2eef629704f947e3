package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScheduleCommandTest {

  /** The repository's example: one 1-GPU node tainted dedicated=gpu, two CPU nodes, a GPU pod without toleration. */
  private static final Path EXAMPLE = Path.of("..", "examples", "scheduling", "gpu-taint.yaml");

  @Test
  void printsKubeSchedulersPendingMessageForTheUntoleratedGpuPod() {
    CliRun run = CliRun.wide("schedule", "-f", EXAMPLE.toString());
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("inference   0/1     Pending")
        .contains("Warning   FailedScheduling   pod/inference   0/3 nodes are available: 1 node(s) had untolerated "
            + "taint(s), 2 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: "
            + "3 Preemption is not helpful for scheduling.\n");
    assertThat(run.err()).isEmpty();
  }

  @Test
  void aHighPriorityPodPreemptsTheTrainingPodAndIsNominated() {
    CliRun run = CliRun.wide("schedule", "-f", Path.of("..", "examples", "scheduling", "preemption.yaml").toString());
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("train       0/1     Terminating   0          0s    gpu-node-1   <none>")
        .contains("inference   0/1     Pending       0          0s    <none>       gpu-node-1")
        .contains("Normal    Preempted          pod/train       Preempted by pod default/inference on node gpu-node-1")
        .contains("pod/inference   0/1 nodes are available: 1 Insufficient nvidia.com/gpu.\n");
  }

  @Test
  void theDefaultConstraintsSpreadADeploymentOnePodPerZone() {
    CliRun run = CliRun.wide("schedule", "-f", Path.of("..", "examples", "scheduling", "topology-spread.yaml").toString(),
        "--output", "json");
    assertThat(run.exitCode()).isZero();
    // zone-a's two large nodes win on resources alone; the spread puts one replica in each zone.
    assertThat(run.out()).containsOnlyOnce("\"big-a").containsOnlyOnce("\"small-b\"").containsOnlyOnce("\"small-c\"");
  }

  @Test
  void requiredPodAntiAffinityKeepsReplicasApartAndSaysWhyTheThirdWaits() {
    CliRun run = CliRun.wide("schedule", "-f", Path.of("..", "examples", "scheduling", "pod-anti-affinity.yaml").toString());
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).containsOnlyOnce(" gpu-a ").containsOnlyOnce(" gpu-b ")
        .contains("0/2 nodes are available: 2 node(s) didn't match pod anti-affinity rules. preemption: 0/2 nodes are "
            + "available: 2 No preemption victims found for incoming pod.");
  }

  @Test
  void withoutPodTopologySpreadResourcesAloneStackTheReplicasInOneZone(@org.junit.jupiter.api.io.TempDir Path dir)
      throws java.io.IOException {
    Path cfg = dir.resolve("sched.yaml");
    java.nio.file.Files.writeString(cfg, """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        profiles:
        - plugins:
            score:
              disabled: [{name: PodTopologySpread}]
        """);
    CliRun run = CliRun.wide("schedule", "-f", Path.of("..", "examples", "scheduling", "topology-spread.yaml").toString(),
        "--output", "json", "--config", cfg.toString());
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).doesNotContain("\"small-b\"").doesNotContain("\"small-c\"");
  }

  @Test
  void aConfigurationThatDisablesDefaultPreemptionDropsTheSuffix(@org.junit.jupiter.api.io.TempDir Path dir)
      throws java.io.IOException {
    Path cfg = dir.resolve("sched.yaml");
    java.nio.file.Files.writeString(cfg, """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        profiles:
        - plugins:
            postFilter:
              disabled: [{name: DefaultPreemption}]
        """);
    CliRun run = CliRun.wide("schedule", "-f", EXAMPLE.toString(), "--config", cfg.toString());
    assertThat(run.out()).contains("2 Insufficient nvidia.com/gpu.\n").doesNotContain("preemption:");
  }

  @Test
  void jsonForScripts() {
    CliRun run = CliRun.wide("schedule", "-f", EXAMPLE.toString(), "-o", "json");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("\"phase\" : \"Pending\"").contains("\"reason\" : \"Unschedulable\"")
        .contains("0/3 nodes are available");
  }

  @Test
  void sameSeedSameOutput(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("c.yaml");
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      b.append("apiVersion: v1\nkind: Node\nmetadata: {name: n").append(i)
          .append("}\nstatus: {allocatable: {cpu: '4', memory: 8Gi}}\n---\n");
    }
    b.append("""
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web}
        spec:
          replicas: 7
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec: {containers: [{name: c, resources: {requests: {cpu: 500m}}}]}
        """);
    Files.writeString(f, b.toString());
    String first = CliRun.wide("schedule", "-f", f.toString(), "--seed", "7").out();
    assertThat(CliRun.wide("schedule", "-f", f.toString(), "--seed", "7").out()).isEqualTo(first);
    assertThat(first.lines().filter(l -> l.contains("web-"))).hasSize(7);
  }

  @Test
  void badInputExitsTwoWithFileLineAndColumnAndNoStackTrace(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("bad.yaml");
    Files.writeString(f, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n"
        + "    resources: {limits: {nvidia.com/gpu: 0.5}}\n");
    CliRun run = CliRun.wide("schedule", "-f", f.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains(f + ":7:42: spec.containers[0].resources.limits[nvidia.com/gpu]: "
        + "Invalid value: \"500m\": must be an integer").doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void unknownOptionsAndValuesAreUsageErrors() {
    assertThat(CliRun.wide("schedule", "-f", EXAMPLE.toString(), "--scoring", "Fastest").exitCode()).isEqualTo(2);
    assertThat(CliRun.wide("schedule").exitCode()).isEqualTo(2);
    assertThat(CliRun.wide("schedule", "-f", "missing.yaml").err()).contains("missing.yaml: no such file");
  }

  @Test
  void unknownKindsAreSkippedWithAWarning(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("np.yaml");
    Files.writeString(f, "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: gpu}\n");
    CliRun run = CliRun.wide("schedule", "-f", f.toString());
    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).contains("karpenter.sh/v1 NodePool \"gpu\" is not used by schedule; skipped");
  }
}
