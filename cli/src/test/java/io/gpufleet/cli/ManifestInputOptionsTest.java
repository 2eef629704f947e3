package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** kubectl's -f conventions are the same in every command that reads manifests (one mixin, one reader). */
class ManifestInputOptionsTest {

  /** A time-sliced A10G node in one file, its device-plugin ConfigMap (JSON) and a pod in a subdirectory. */
  private static Path splitCluster(Path dir) throws IOException {
    Files.writeString(dir.resolve("node.yaml"), """
        apiVersion: v1
        kind: Node
        metadata:
          name: gpu-a10g-1
          labels: {nvidia.com/device-plugin.config: ts2}
          annotations: {gpufleet.io/gpus: "NVIDIA-A10G:1"}
        status:
          allocatable: {cpu: "8", memory: 32Gi, pods: "110"}
        """);
    Files.writeString(dir.resolve("plugin.json"), """
        {"apiVersion": "v1", "kind": "ConfigMap",
         "metadata": {"name": "plugin", "namespace": "gpu-operator"},
         "data": {"ts2": "version: v1\\nsharing:\\n  timeSlicing:\\n    resources:\\n    - name: nvidia.com/gpu\\n      replicas: 2\\n"}}
        """);
    Files.createDirectory(dir.resolve("apps"));
    Files.writeString(dir.resolve("apps").resolve("pod.yaml"), """
        apiVersion: v1
        kind: Pod
        metadata: {name: notebook}
        spec:
          containers:
          - name: c
            resources: {limits: {nvidia.com/gpu: 1}}
        """);
    return dir;
  }

  @ParameterizedTest
  @ValueSource(strings = {"schedule", "smi", "node describe"})
  void aDirectoryIsReadWithItsSubdirectoriesOnlyUnderR(String command, @TempDir Path dir) throws IOException {
    splitCluster(dir);
    List<String> base = List.of(command.split(" "));
    CliRun flat = CliRun.wide(args(base, "-f", dir.toString()));
    CliRun recursive = CliRun.wide(args(base, "-R", "-f", dir.toString()));
    assertThat(flat.exitCode()).as(flat.err()).isZero();
    assertThat(recursive.exitCode()).as(recursive.err()).isZero();
    if (command.equals("node describe")) {
      // The ConfigMap from plugin.json took effect on the node from node.yaml.
      assertThat(flat.out()).contains("nvidia.com/gpu:  2", "nvidia.com/gpu.replicas=2");
    } else {
      assertThat(flat.out()).doesNotContain("notebook");
      assertThat(recursive.out()).contains("notebook");
    }
  }

  @Test
  void anErrorNamesTheCommandAsTyped() {
    // Issue 31: the error said "gpufleet describe", a command that does not exist.
    CliRun run = CliRun.of("node", "describe");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).startsWith("gpufleet node describe: no input: give -f FILE");
  }

  @Test
  void filesGivenOneByOneReadAsTheDirectoryDoes(@TempDir Path dir) throws IOException {
    splitCluster(dir);
    CliRun byDir = CliRun.wide("smi", "-R", "-f", dir.toString());
    CliRun byFile = CliRun.wide("smi", "-f", dir.resolve("apps/pod.yaml").toString(), "-f",
        dir.resolve("node.yaml").toString(), "--filename", dir.resolve("plugin.json").toString());
    assertThat(byFile.exitCode()).as(byFile.err()).isZero();
    assertThat(byFile.out()).isEqualTo(byDir.out()).contains("default/notebook");
  }

  @Test
  void noInputIsAUsageErrorNamingTheOption() {
    CliRun run = CliRun.wide("schedule");
    assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(run.err()).isEqualTo("gpufleet schedule: no input: give -f FILE (a file, a directory, or - for stdin) "
        + "or --kubeconfig FILE\n");
  }

  @Test
  void anAliasAndAMergeKeyScheduleAsKubectlReadsThem(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("anchors.yaml");
    // Anchors live within one YAML document, so the objects share one List, as in a kubectl dump.
    Files.writeString(f, """
        apiVersion: v1
        kind: List
        items:
        - apiVersion: v1
          kind: Node
          metadata:
            name: h100
            labels: {gpu.product: &prod H100}
          status: {allocatable: &alloc {cpu: "8", memory: 32Gi, pods: "110", nvidia.com/gpu: "1"}}
        - apiVersion: v1
          kind: Node
          metadata: {name: a10g, labels: {gpu.product: A10G}}
          status: {allocatable: *alloc}
        - apiVersion: v1
          kind: Pod
          metadata: {name: first}
          spec:
            nodeSelector: {gpu.product: *prod}
            containers:
            - &ctr
              name: c
              resources: {limits: {nvidia.com/gpu: 1}}
        - apiVersion: v1
          kind: Pod
          metadata: {name: second}
          spec:
            nodeSelector: {gpu.product: *prod}
            containers:
            - <<: *ctr
              name: d
        """);
    CliRun run = CliRun.wide("schedule", "-f", f.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    // The alias is the product, so "first" takes h100's only GPU; the merged container asks for a
    // GPU too, so "second" (also bound to h100) waits. Read as the anchor's name or without the
    // merge, "first" would match no node, or "second" would ask for nothing and run.
    assertThat(run.out()).containsPattern("first +0/1 +ContainerCreating +0 +0s +h100")
        .contains("pod/second   0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) didn't match "
            + "Pod's node affinity/selector.");
  }

  private static String[] args(List<String> base, String... more) {
    return java.util.stream.Stream.concat(base.stream(), java.util.Arrays.stream(more)).toArray(String[]::new);
  }
}
