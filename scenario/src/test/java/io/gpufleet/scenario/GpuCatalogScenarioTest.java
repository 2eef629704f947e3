package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code spec.gpuCatalog} lays a user's GPU catalogue over the built-in one for the simulator. */
class GpuCatalogScenarioTest {

  private static String scenario(String gpuCatalog) {
    return """
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: h20}
        spec:
          seed: 1
        """ + gpuCatalog + """
          cluster:
          - apiVersion: v1
            kind: Node
            metadata:
              name: h20-0
              labels:
                nvidia.com/gpu.product: NVIDIA-H20
                nvidia.com/gpu.count: "8"
                nvidia.com/gpu.memory: "97871"
                nvidia.com/gpu.compute.major: "9"
                nvidia.com/gpu.compute.minor: "0"
            status:
              capacity: {cpu: "128", memory: 1000Gi, pods: "110", nvidia.com/gpu: "8"}
          steps:
          - title: a minute
            actions:
            - wait: 60s
        """;
  }

  private static SimulationResult run(Path dir, String text) {
    return Simulation.run(ScenarioReader.read("h20.yaml", text, ScenarioSources.directory(dir)).scenario());
  }

  private static String addedLine(SimulationResult r) {
    return r.record().of(RunRecord.Kind.SCENARIO).stream().map(Object::toString)
        .filter(s -> s.contains("node added")).findFirst().orElseThrow();
  }

  @Test
  void aUsersCatalogueModelsTheCardAndWithoutItTheNodeIsReadWithAWarning(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("gpus.txt"), """
        gpu H20
          product NVIDIA H20
          memory-mib 97871
          compute 9.0
          mig none
          source our nodes
        """);
    SimulationResult known = run(dir, scenario("  gpuCatalog: gpus.txt\n"));
    var node = known.checkpoints().getLast().state().nodes().get("h20-0").node();
    assertThat(node.allocatable().getOrZero(ResourceName.NVIDIA_GPU).value()).isEqualTo(8);
    // GFD, running over the user's model, labels the card's family from its compute capability.
    assertThat(node.labels().get("nvidia.com/gpu.family")).contains("hopper");
    assertThat(addedLine(known)).contains("8 x NVIDIA H20").doesNotContain("not in the GPU catalogue");

    // Without it the card is read from the node's labels, with a warning at the node, and modelled as
    // smi models it: GFD's labels, which pods select, stay on the node.
    ScenarioFile read = ScenarioReader.read("h20.yaml", scenario(""), ScenarioSources.directory(dir));
    assertThat(read.warnings()).singleElement().asString().startsWith("h20.yaml:7:5: warning: ")
        .contains("metadata.labels[nvidia.com/gpu.product]: node \"h20-0\": GPU product \"NVIDIA-H20\" is not in "
            + "the GPU catalogue; read from the node instead: memory 97871 MiB");
    SimulationResult unknown = Simulation.run(read.scenario());
    var discovered = unknown.checkpoints().getLast().state().nodes().get("h20-0").node();
    assertThat(discovered.allocatable().getOrZero(ResourceName.NVIDIA_GPU).value()).isEqualTo(8);
    assertThat(discovered.labels().get("nvidia.com/gpu.product")).contains("NVIDIA-H20");
    assertThat(discovered.labels().get("nvidia.com/gpu.family")).contains("hopper");
    assertThat(addedLine(unknown)).contains("8 x NVIDIA-H20");
  }

  @Test
  void aBadCatalogueFileIsAnErrorAtItsPlace(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("gpus.txt"), "gpu H20\n  product NVIDIA H20\n  colour green\n  source x\n");
    assertThatThrownBy(() -> run(dir, scenario("  gpuCatalog: gpus.txt\n")))
        .isInstanceOfSatisfying(ManifestException.class, e -> assertThat(e.problems().getFirst().toString())
            .startsWith(dir.resolve("gpus.txt").normalize() + ":3:3: unknown key \"colour\""));
  }
}
