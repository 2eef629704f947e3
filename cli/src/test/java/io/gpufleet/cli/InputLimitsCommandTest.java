package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import io.gpufleet.engine.deviceplugin.NodeGpus;
import io.gpufleet.manifest.yaml.YamlReader;
import io.gpufleet.model.advise.WorkloadProfile;
import io.gpufleet.model.time.KubeDuration;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.replay.WorkloadTuning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/** The input limits of docs/input-limits.md: stated as the code enforces them, refused at once, where written, exit 2. */
class InputLimitsCommandTest {

  @ParameterizedTest
  @ValueSource(strings = {"smi", "node describe"})
  void aNodeStatingMoreGpusThanAnyServerHoldsIsRefused(String command, @TempDir Path dir) throws IOException {
    Path f = Files.writeString(dir.resolve("node.yaml"), """
        apiVersion: v1
        kind: Node
        metadata:
          name: big
          annotations:
            gpufleet.io/gpus: "NVIDIA-A10G:100000"
        status:
          capacity: {cpu: "8", memory: 32Gi, pods: "110"}
        """);
    List<String> args = new ArrayList<>(List.of(command.split(" ")));
    args.addAll(List.of("-f", f.toString()));
    CliRun run = CliRun.of(args.toArray(String[]::new));
    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(run.err()).contains(f + ":6:23: metadata.annotations[gpufleet.io/gpus]: expected a GPU count from 0 "
        + "to 64 (gpufleet's limit per node), found 100000").doesNotContain("Exception");
  }

  /** Stated by GFD's labels, the count is reported at the count label, not at the product's. */
  @Test
  void aGpuCountLabelBeyondTheLimitIsReportedAtThatLabel(@TempDir Path dir) throws IOException {
    Path f = Files.writeString(dir.resolve("node.yaml"), """
        apiVersion: v1
        kind: Node
        metadata:
          name: big
          labels: {nvidia.com/gpu.product: NVIDIA-A10G, nvidia.com/gpu.count: "100000"}
        status:
          capacity: {cpu: "8", memory: 32Gi, pods: "110"}
        """);
    // GFD's label is what the node reported: a warning, and the node is read without modelled GPUs.
    CliRun run = CliRun.of("node", "describe", "-f", f.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.err()).contains(f + ":5:71: warning: metadata.labels[nvidia.com/gpu.count]: node \"big\": "
        + "expected a GPU count from 0 to 64 (gpufleet's limit per node), found 100000; read without modelled GPUs");
    // The user's own annotation beyond the limit stays an error.
    Path stated = Files.writeString(dir.resolve("stated.yaml"), """
        apiVersion: v1
        kind: Node
        metadata:
          name: big
          annotations: {gpufleet.io/gpus: "NVIDIA-A10G:100000"}
        """);
    CliRun refused = CliRun.of("node", "describe", "-f", stated.toString());
    assertThat(refused.exitCode()).as(refused.err()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(refused.err()).contains(stated + ":5:35: metadata.annotations[gpufleet.io/gpus]: expected a GPU "
        + "count from 0 to 64 (gpufleet's limit per node), found 100000");
  }

  @Test
  void theDocsStateTheLimitsTheCodeEnforces() throws IOException {
    String doc = Files.readString(Path.of("..", "docs", "input-limits.md"));
    assertThat(doc)
        .contains("| " + YamlReader.MAX_CHARS + " characters (256 Mi) |")
        .contains("| " + YamlReader.MAX_DEPTH + " levels |")
        .contains("| " + NodeGpus.MAX_GPUS_PER_NODE + " |")
        .contains("| " + WorkloadProfile.MAX_REPLICAS_IN_ALL + " |")
        .contains("| " + WorkloadTuning.MAX_ARRIVALS + " |")
        .contains("| " + KubeDuration.format(SimulationSettings.DEFAULTS.horizon()) + " (the run's horizon, "
            + SimulationSettings.DEFAULTS.horizon().toDays() + " days of virtual time) |");
    assertThat(YamlReader.MAX_CHARS).isEqualTo(256 * 1024 * 1024);
    assertThat(doc)
        .contains("| " + io.gpufleet.manifest.kube.KubeDecoder.TOTAL_ANNOTATION_SIZE_LIMIT_B + " bytes (256 KiB) |")
        .contains("Too long: may not be more than " + io.gpufleet.manifest.kube.KubeDecoder.TOTAL_ANNOTATION_SIZE_LIMIT_B)
        .contains("| a CEL selector's estimated worst-case cost | " + io.gpufleet.engine.dra.CelDeviceSelector.COST_LIMIT
            + " |");
  }
}
