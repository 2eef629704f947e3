package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every command that reads manifests refuses two objects of one kind, namespace and name, naming both places. */
class DuplicateObjectsCommandTest {

  private static final String NODE = """
      apiVersion: v1
      kind: Node
      metadata:
        name: gpu-a
        labels: {nvidia.com/gpu.product: NVIDIA-A10G}
      status:
        capacity: {cpu: "4", memory: 16Gi, nvidia.com/gpu: "1", pods: "58"}
        allocatable: {cpu: "4", memory: 16Gi, nvidia.com/gpu: "1", pods: "58"}
      """;

  private static final String POD = """
      apiVersion: v1
      kind: Pod
      metadata: {name: p, namespace: team}
      spec: {containers: [{name: c, image: i, resources: {limits: {nvidia.com/gpu: 1}}}]}
      """;

  private static Path twoNodes(Path dir) throws IOException {
    return Files.writeString(dir.resolve("nodes.yaml"), NODE + "---\n" + NODE);
  }

  private static void refused(CliRun run, String second, String first) {
    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(run.err()).contains(second + ": metadata.name: Node \"gpu-a\" is already defined at " + first)
        .doesNotContain("Exception");
  }

  @ParameterizedTest
  @ValueSource(strings = {"schedule", "smi", "node describe"})
  void refusesDuplicateNodes(String command, @TempDir Path dir) throws IOException {
    Path f = twoNodes(dir);
    List<String> args = new ArrayList<>(List.of(command.split(" ")));
    args.addAll(List.of("-f", f.toString()));
    refused(CliRun.of(args.toArray(String[]::new)), f + ":10:1", f + ":1:1");
  }

  @Test
  void scheduleRefusesANodeRepeatedInAnotherFile(@TempDir Path dir) throws IOException {
    Path a = Files.writeString(dir.resolve("a.yaml"), NODE);
    Path b = Files.writeString(dir.resolve("b.yaml"), NODE);
    refused(CliRun.of("schedule", "-f", a.toString(), "-f", b.toString()), b + ":1:1", a + ":1:1");
  }

  @Test
  void scheduleRefusesDuplicatePods(@TempDir Path dir) throws IOException {
    Path f = Files.writeString(dir.resolve("pods.yaml"), NODE + "---\n" + POD + "---\n" + POD);
    CliRun run = CliRun.of("schedule", "-f", f.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(run.err()).contains(f + ":15:1: metadata.name: Pod \"team/p\" is already defined at " + f + ":10:1");
  }

  @Test
  void simulateRefusesDuplicateNodesInTheCluster(@TempDir Path dir) throws IOException {
    Path nodes = twoNodes(dir);
    Path s = Files.writeString(dir.resolve("s.yaml"), """
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: dup}
        spec:
          cluster:
          - file: nodes.yaml
          steps:
          - title: t
            actions:
            - wait: 1m
        """);
    Path named = nodes.toAbsolutePath().normalize();
    refused(CliRun.of("simulate", s.toString(), "--out", dir.resolve("out").toString(), "-q"), named + ":10:1",
        named + ":1:1");
    assertThat(dir.resolve("out")).doesNotExist();
  }
}
