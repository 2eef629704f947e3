package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/** Stated input limits: refused at once, where written, exit 2. */
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
}
