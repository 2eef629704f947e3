package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Device taints and tolerations (DeviceTaintRule, slice taints, eviction in {@code simulate}) and
 * DRA-backed extended resources ({@code nvidia.com/gpu} through NVIDIA's {@code gpu.nvidia.com}
 * class), through the examples docs/commands.md shows.
 */
class DraTaintsAndExtendedResourcesTest {

  private static final Path DRA = Path.of("..", "examples", "dra");

  @Test
  void theDeviceTaintExampleKeepsTheTrainerOffTheTaintedCardAndGivesItToTheTolerantPod() {
    CliRun run = CliRun.wide("schedule", "-f", DRA.resolve("device-taint.yaml").toString());
    assertThat(run.exitCode()).isZero();
    // The DeviceTaintRule is read and used: no "not used by schedule" warning.
    assertThat(run.err()).isEmpty();
    assertThat(run.out())
        .containsPattern("trainer-gpu +allocated,reserved +h100-node +gpu: gpu.nvidia.com/h100-node/gpu-1 +trainer\n")
        .containsPattern("diagnostics-gpu +allocated,reserved +h100-node +gpu: gpu.nvidia.com/h100-node/gpu-0 "
            + "+diagnostics\n")
        .containsPattern("second-trainer +0/1 +Pending ")
        .contains("pod/second-trainer   0/1 nodes are available: 1 cannot allocate all claims. still not schedulable");
  }

  @Test
  void withoutTheRuleTheTrainerTakesTheFirstCardSoTheRuleIsWhatMovesIt(@TempDir Path dir) throws IOException {
    String yaml = Files.readString(DRA.resolve("device-taint.yaml"));
    String withoutRule = yaml.replaceAll("(?s)---\napiVersion: resource.k8s.io/v1\nkind: DeviceTaintRule.*?---\n",
        "---\n");
    assertThat(withoutRule).doesNotContain("kind: DeviceTaintRule");
    Path f = dir.resolve("no-rule.yaml");
    Files.writeString(f, withoutRule);
    CliRun run = CliRun.wide("schedule", "-f", f.toString());
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).containsPattern("trainer-gpu +allocated,reserved +h100-node "
        + "+gpu: gpu.nvidia.com/h100-node/gpu-0 +trainer\n");
  }

  @Test
  void theEvictionExampleEvictsTheTrainerAtOnceAndTheTolerantPodWhenItsSecondsRunOut(@TempDir Path tmp) {
    CliRun run = CliRun.wide("simulate", DRA.resolve("device-taint-eviction.yaml").toString(), "--out",
        tmp.resolve("out").toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .containsPattern("\\+00:00:30 +PodEvicted +default/trainer-\\S+ +DeviceTaintManagerEviction: Marking for deletion "
            + "\\(claim default/trainer-\\S+-gpu-\\S+, device gpu.nvidia.com/h100-node/gpu-\\d has taint "
            + "gpu.example.com/maintenance=firmware-update:NoExecute\\)")
        .containsPattern("\\+00:10:30 +PodEvicted +default/burn-in +DeviceTaintManagerEviction: Marking for deletion")
        // Deleting the rule frees the cards: the trainer's replacement runs.
        .containsPattern("\\+00:11:30 +Scenario +DeviceTaintRule/h100-node-maintenance +deleted")
        .containsPattern("\\+00:11:30 +PodReady +default/trainer-\\S+ +on h100-node")
        .contains("expectations    2 of 2 passed");
  }

  @Test
  void theExtendedResourceExampleRunsPlainGpuPodsThroughTheDraClassAndTheDevicePlugin() {
    CliRun run = CliRun.wide("schedule", "-f", DRA.resolve("extended-resource.yaml").toString());
    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).isEmpty();
    String out = run.out();
    assertThat(out.lines().filter(l -> l.matches(".*ContainerCreating +0 +0s +h100-node .*"))).hasSize(2);
    assertThat(out.lines().filter(l -> l.matches(".*ContainerCreating +0 +0s +a10g-node .*"))).hasSize(1);
    assertThat(out).containsPattern("cuda-sample-\\S+-extended-resources +allocated,reserved +h100-node "
        + "+container-0-request-0: gpu.nvidia.com/h100-node/gpu-0 ")
        .containsPattern("cuda-sample-\\S+-extended-resources +allocated,reserved +h100-node "
            + "+container-0-request-0: gpu.nvidia.com/h100-node/gpu-1 ")
        .contains("0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 cannot allocate all claims.");
  }

  @Test
  void simulateRunsPlainGpuPodsOnTheDraNodeWithTheClaimsTheSchedulerMade(@TempDir Path tmp) {
    CliRun run = CliRun.wide("simulate", "-f", DRA.resolve("extended-resource.yaml").toString(), "--for", "2m",
        "--out", tmp.resolve("out").toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out().lines().filter(l -> l.matches(".*cuda-sample-\\S+ +1/1 +Running +h100-node .*")))
        .hasSize(2);
    assertThat(run.out()).containsPattern("gpu-0 +default/cuda-sample-\\S+ +cuda-sample-\\S+-extended-resources-"
        + "[a-z0-9]{5} ");
    assertThat(run.out()).doesNotContain("overcommit");
  }

  @Test
  void badTaintsTolerationsAndExtendedResourceNamesAreRefusedAtTheirLine(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("bad.yaml");
    Files.writeString(f, """
        apiVersion: resource.k8s.io/v1
        kind: DeviceTaintRule
        metadata: {name: r}
        spec:
          deviceSelector: {driver: gpu.nvidia.com}
          taint: {key: example.com/k, effect: PreferNoSchedule}
        ---
        {apiVersion: resource.k8s.io/v1, kind: ResourceClaim, metadata: {name: c}, spec: {devices: {requests: [
          {name: gpu, exactly: {deviceClassName: gpu.nvidia.com, tolerations: [
            {key: example.com/k, operator: Exists, value: v}]}}]}}}
        ---
        apiVersion: resource.k8s.io/v1
        kind: DeviceClass
        metadata: {name: cpus}
        spec:
          extendedResourceName: cpu
        """);
    CliRun run = CliRun.wide("schedule", "-f", f.toString());
    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err())
        .contains(f + ":6:39: spec.taint.effect: ")
        .contains("Unsupported value: \"PreferNoSchedule\": supported values: \"NoExecute\", \"NoSchedule\", \"None\"")
        .contains("Invalid value: \"v\": value must be empty when `operator` is 'Exists'")
        .contains("Invalid value: \"cpu\": must be an extended resource name");
  }
}
