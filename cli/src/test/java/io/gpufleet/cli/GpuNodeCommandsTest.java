package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.gpu.ComputeCapability;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.nvml.ComputeMode;
import io.gpufleet.nvml.GpuFacts;
import io.gpufleet.nvml.NodeFacts;
import io.gpufleet.nvml.Nvml;
import io.gpufleet.nvml.ProbeLabels;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** probe and bench-sharing where there is no GPU, and the probe's three renderings. */
class GpuNodeCommandsTest {

  private static final NodeFacts H200 = new NodeFacts("580.159.04", List.of(new GpuFacts(0, "NVIDIA H200", "GPU-1",
      143771, 615, new ComputeCapability(9, 0), Optional.of(new Nvml.MigModes(0, 0)), List.of(), ComputeMode.DEFAULT,
      Optional.of(new Nvml.Utilization(3, 1)))));

  @Test
  void withoutAGpuBothCommandsSayOneLineAndExit3() {
    for (String command : List.of("probe", "bench-sharing")) {
      CliRun run = CliRun.of(command, "--nvml-library", "/no/such/libnvidia-ml.so.1");
      assertThat(run.exitCode()).as(command).isEqualTo(3);
      assertThat(run.out()).isEmpty();
      assertThat(run.err().lines()).as(command).singleElement().asString()
          .isEqualTo("gpufleet " + command + ": no GPU here: NVML library /no/such/libnvidia-ml.so.1 (from --nvml-library) does not exist");
    }
  }

  @Test
  void aModeTheBenchDoesNotKnowIsBadInput() {
    CliRun run = CliRun.of("bench-sharing", "--modes", "time-slicing,mig");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--modes: expected time-slicing, mps, mps-capped or mps-capped-solo, found \"mig\"");
  }

  @Test
  void theYamlIsANodeLabelsPatchOfExactlyTheLabels() {
    ProbeLabels labels = ProbeLabels.of(H200, GpuCatalog.builtIn());
    String yaml = ProbeCommand.render(H200, labels, ProbeCommand.Output.yaml);
    JsonNode doc = YAMLMapper.builder().build().readTree(yaml);
    assertThat(doc.propertyNames()).containsExactly("metadata");
    JsonNode l = doc.get("metadata").get("labels");
    assertThat(l.size()).isEqualTo(labels.labels().map().size());
    labels.labels().map().forEach((k, v) -> assertThat(l.get(k).asString()).as(k).isEqualTo(v));
    // Every value is a string in YAML too (a Node's labels are strings): "9" stays quoted.
    assertThat(yaml).contains("nvidia.com/gpu.compute.major: \"9\"");
  }

  @Test
  void theTableShowsTheCardAndEveryLabel() {
    ProbeLabels labels = ProbeLabels.of(H200, GpuCatalog.builtIn());
    String table = ProbeCommand.render(H200, labels, ProbeCommand.Output.table);
    assertThat(table).startsWith("Driver 580.159.04\n").contains("143771MiB", "Disabled/Disabled", "3%/1%",
        "catalogue entry H200-141GB");
    labels.labels().map().forEach((k, v) -> assertThat(table).containsPattern(java.util.regex.Pattern.quote(k) + " +" + v + "\n"));
  }
}
