package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28's open GPU catalogue through the command line: nodes whose cards the built-in catalogue
 * lacks (an H20, a V100 variant) or names under MIG single are read with a warning beside a known
 * A10G, a user's catalogue file resolves them, and one unreadable node stops nothing.
 */
class OpenGpuCatalogueTest {

  private static final String NODES = "nodes-outside-catalogue.yaml";

  private static Path example(String name) {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      Path candidate = p.resolve("examples/gpu").resolve(name);
      if (Files.exists(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException("examples/gpu/" + name + " not found");
  }

  /** The line of the example at which a node's label is written, 1-based. */
  private static int lineOf(String text, String node, String label) {
    String[] lines = text.split("\n", -1);
    int nodeAt = Arrays.asList(lines).indexOf("    name: " + node);
    for (int i = nodeAt; i >= 0; i--) {
      if (lines[i].strip().startsWith(label + ":")) {
        return i + 1;
      }
    }
    throw new IllegalStateException(label + " of " + node);
  }

  @Test
  void nodeDescribeReadsEveryNodeAndSaysWhatItTookFromWhere() throws IOException {
    Path file = example(NODES);
    String text = Files.readString(file);
    CliRun r = CliRun.wide("node", "describe", "-f", file.toString());
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).contains("Name:               h20-0", "8 x NVIDIA-H20 (NVIDIA-H20, from label nvidia.com/gpu.product;",
        "8 x Tesla-V100-SXM2-16GB-N", "8 x NVIDIA A100-SXM4-40GB (A100-40GB, from label nvidia.com/gpu.product (MIG "
            + "strategy single))", "1 x NVIDIA A10G (A10G, from label nvidia.com/gpu.product)");
    // Each warning at the label it is about, naming the node, the product and where each figure came from.
    assertThat(r.err().lines().filter(l -> l.contains(": warning: "))).containsExactly(
        file + ":" + lineOf(text, "h20-0", "nvidia.com/gpu.product") + ":31: warning: "
            + "metadata.labels[nvidia.com/gpu.product]: node \"h20-0\": GPU product \"NVIDIA-H20\" is not in the GPU "
            + "catalogue; read from the node instead: memory 97871 MiB from label nvidia.com/gpu.memory; compute "
            + "capability 9.0 from labels nvidia.com/gpu.compute.major and .minor; 8 GPU(s) from label "
            + "nvidia.com/gpu.count; MIG profiles are not modelled for a card the catalogue lacks; add it to a GPU "
            + "catalogue file (--gpu-catalog FILE, or spec.gpuCatalog in a scenario) to model it",
        file + ":" + lineOf(text, "v100n-0", "nvidia.com/gpu.product") + ":31: warning: "
            + "metadata.labels[nvidia.com/gpu.product]: node \"v100n-0\": GPU product \"Tesla-V100-SXM2-16GB-N\" is not "
            + "in the GPU catalogue; read from the node instead: memory 16160 MiB from label nvidia.com/gpu.memory; "
            + "compute capability 7.0 from labels nvidia.com/gpu.compute.major and .minor; 8 GPU(s) from label "
            + "nvidia.com/gpu.count; MIG profiles are not modelled for a card the catalogue lacks; add it to a GPU "
            + "catalogue file (--gpu-catalog FILE, or spec.gpuCatalog in a scenario) to model it",
        file + ":" + lineOf(text, "dgx-a100-0", "nvidia.com/gpu.count") + ":29: warning: "
            + "metadata.labels[nvidia.com/gpu.count]: node \"dgx-a100-0\": GPU product "
            + "\"NVIDIA-A100-SXM4-40GB-MIG-1g.5gb\" is MIG strategy single's: 56 MIG 1g.5gb device(s) (from label "
            + "nvidia.com/gpu.count) of NVIDIA-A100-SXM4-40GB, which holds at most 7 per card, so 8 card(s) are "
            + "assumed; state the cards with annotation gpufleet.io/gpus to be exact",
        // The dump's MIG single node: without the plugin's ConfigMap, the defaults would advertise its 8 cards.
        file + ":" + (text.lines().toList().indexOf("    name: dgx-a100-0") + 10) + ":5: warning: status.capacity: "
            + "node dgx-a100-0 reports nvidia.com/gpu: 56 (its status); the device-plugin config selected for it "
            + "(<built-in>, no config map: plugin defaults) would advertise nvidia.com/gpu: 8; gpufleet takes the "
            + "node's report as its state now (its devices modelled as exclusive, MIG strategy single, as its labels "
            + "and resources show) and registers it as the config says only when its config label, its MIG layout or "
            + "the node changes");
    // The H20 and V100 cards are modelled as the node states them: GFD's labels come back as they were.
    assertThat(r.out()).contains("nvidia.com/gpu.memory=97871", "nvidia.com/gpu.family=volta",
        "nvidia.com/gpu.memory=16160");
  }

  @Test
  void smiPlacesPodsOnTheCardsReadFromTheNodes() {
    CliRun r = CliRun.wide("smi", "-f", example(NODES).toString());
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).contains("| Node h20-0   8 x NVIDIA-H20   exclusive", "| Node v100n-0   8 x Tesla-V100-SXM2-16GB-N",
        "| Node dgx-a100-0   8 x NVIDIA A100-SXM4-40GB", "| Node g5-0   1 x NVIDIA A10G");
    assertThat(r.out().lines().filter(l -> l.contains("default/infer-h20"))).hasSize(2);
    assertThat(r.out().lines().filter(l -> l.contains("default/train-v100"))).singleElement()
        .satisfies(l -> assertThat(l).contains("| 0     -     GPU-"));
    assertThat(r.out()).contains("97871MiB", "16160MiB");
  }

  /** simulate -f reads the nodes as smi does: the pods that select the reported products run on them. */
  @Test
  void simulateAgreesWithSmi(@TempDir Path dir) {
    CliRun r = CliRun.wide("simulate", "-f", example(NODES).toString(), "--for", "1m", "--out", dir.toString());
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).contains("default/infer-h20    bound to h20-0", "default/train-v100   bound to v100n-0");
    assertThat(r.err()).contains("node \"h20-0\": GPU product \"NVIDIA-H20\" is not in the GPU catalogue");
    Path scenario = dir.resolve("s.yaml");
    assertThat(CliRun.wide("simulate", scenario.toString(), "--gpu-catalog", "x.txt").err())
        .contains("--gpu-catalog applies to manifests (-f, --kubeconfig); a SCENARIO file names its GPU catalogue "
            + "with spec.gpuCatalog");
  }

  @Test
  void aUsersCatalogueFileResolvesTheCardAndItsErrorsNameTheirPlace(@TempDir Path dir) throws IOException {
    Path mine = dir.resolve("gpus.txt");
    Files.writeString(mine, """
        gpu H20
          product NVIDIA H20
          memory-mib 97871
          compute 9.0
          mig none
          source our nodes' nvidia-smi
        """);
    CliRun r = CliRun.wide("node", "describe", "--node", "h20-0", "-f", example(NODES).toString(), "--gpu-catalog",
        mine.toString());
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).contains("8 x NVIDIA H20 (H20, from label nvidia.com/gpu.product)");
    assertThat(r.err()).doesNotContain("\"NVIDIA-H20\" is not in the GPU catalogue").contains("v100n-0");
    Files.writeString(mine, "gpu H20\n  product NVIDIA H20\n  memory-mib 96GB\n  source x\n");
    CliRun bad = CliRun.wide("smi", "-f", example(NODES).toString(), "--gpu-catalog", mine.toString());
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err()).isEqualTo(mine + ":3:14: memory-mib: expected a number, found \"96GB\"\n"
        + "gpufleet: 1 error(s); nothing was run.\n");
    assertThat(bad.out()).isEmpty();
  }

  /** A node whose labels cannot be read is reported at its place and left without GPUs; the others are read. */
  @Test
  void oneOddNodeStopsNothingButTheUsersOwnAnnotationIsAnError(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("nodes.yaml");
    Files.writeString(file, """
        apiVersion: v1
        kind: Node
        metadata:
          name: odd
          labels:
            nvidia.com/gpu.product: NVIDIA-A10G
            nvidia.com/gpu.count: eight
        ---
        apiVersion: v1
        kind: Node
        metadata:
          name: fine
          labels:
            nvidia.com/gpu.product: NVIDIA-A10G
            nvidia.com/gpu.count: "1"
        """);
    CliRun r = CliRun.wide("node", "describe", "-f", file.toString());
    assertThat(r.exitCode()).isZero();
    assertThat(r.err()).contains(file + ":7:27: warning: metadata.labels[nvidia.com/gpu.count]: node \"odd\": "
        + "expected an integer, found \"eight\"; read without modelled GPUs");
    assertThat(r.out()).contains("GPUs:               <none> (expected an integer, found \"eight\")",
        "1 x NVIDIA A10G (A10G, from label nvidia.com/gpu.product)");
    // smi says where a GPU pod bound to that node went, rather than dropping it.
    Files.writeString(file, Files.readString(file).replace(
        "nvidia.com/gpu.count: eight\n", "nvidia.com/gpu.count: eight\nstatus:\n  capacity: {nvidia.com/gpu: \"8\"}\n")
        + """
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: p, namespace: default}
        spec:
          nodeName: odd
          containers:
          - {name: c, image: x, resources: {limits: {nvidia.com/gpu: 1}}}
        """);
    CliRun smi = CliRun.wide("smi", "-f", file.toString());
    assertThat(smi.exitCode()).as(smi.err()).isZero();
    assertThat(smi.out()).contains("default/p   Running   bound to node odd, whose GPUs gpufleet does not model");
    Files.writeString(file, """
        apiVersion: v1
        kind: Node
        metadata:
          name: stated
          annotations:
            gpufleet.io/gpus: "NVIDIA-H20:8"
        """);
    CliRun stated = CliRun.wide("smi", "-f", file.toString());
    assertThat(stated.exitCode()).isEqualTo(2);
    assertThat(stated.err()).startsWith(file + ":6:23: metadata.annotations[gpufleet.io/gpus]: expected a GPU "
        + "model of the catalogue (").contains("found \"NVIDIA-H20\"; add it to a GPU catalogue file");
  }
}
