package io.gpufleet.engine.deviceplugin;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.InstanceTypeGpus;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.ResourceList;
import java.io.StringReader;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How a node's GPUs are read when the catalogue lacks its card, or GFD labels it under MIG single. */
class NodeGpusTest {

  private static final GpuCatalog CATALOG = GpuCatalog.builtIn();
  /** No instance type is known, unless a test says so. */
  private static final InstanceTypeGpus NO_TYPES = InstanceTypeGpus.NONE;

  private static Node node(String name, Labels labels, String... capacity) {
    return Node.of(name, labels, List.of(), ResourceList.of(capacity));
  }

  private static NodeGpus.Found.Gpus gpus(NodeGpus.Found found) {
    assertThat(found).isInstanceOf(NodeGpus.Found.Gpus.class);
    return (NodeGpus.Found.Gpus) found;
  }

  /** The labels of an 8 x H20 node as GFD writes them (examples/gpu/nodes-outside-catalogue.yaml cites them). */
  private static Labels h20Labels() {
    return Labels.of("nvidia.com/gpu.product", "NVIDIA-H20", "nvidia.com/gpu.count", "8",
        "nvidia.com/gpu.memory", "97871", "nvidia.com/gpu.compute.major", "9", "nvidia.com/gpu.compute.minor", "0",
        "nvidia.com/gpu.family", "hopper");
  }

  @Test
  void aProductTheCatalogueLacksIsBuiltFromTheNodesLabels() {
    NodeGpus.Found.Gpus g = gpus(NodeGpus.of(node("h20-0", h20Labels()), CATALOG, NO_TYPES));
    GpuModel m = g.inventory().model();
    assertThat(m.productLabel()).isEqualTo("NVIDIA-H20");
    assertThat(m.memoryMiB()).hasValue(97871);
    assertThat(m.compute()).map(Object::toString).hasValue("9.0");
    assertThat(m.family()).isEqualTo("hopper");
    assertThat(m.migCapable()).isFalse();
    assertThat(g.inventory().count()).isEqualTo(8);
    assertThat(g.warnings()).singleElement().satisfies(w -> {
      assertThat(w.field()).isEqualTo("metadata.labels[nvidia.com/gpu.product]");
      assertThat(w.message()).startsWith("node \"h20-0\": GPU product \"NVIDIA-H20\" is not in the GPU catalogue")
          .contains("memory 97871 MiB from label nvidia.com/gpu.memory",
              "compute capability 9.0 from labels nvidia.com/gpu.compute.major and .minor",
              "8 GPU(s) from label nvidia.com/gpu.count", "MIG profiles are not modelled");
    });
  }

  @Test
  void whereNothingStatesMemoryOrCountTheWarningSaysSoAndCapacityCountsTheCards() {
    // Time-sliced x4: capacity 8 is 2 cards of 4 replicas each (GFD's nvidia.com/gpu.replicas).
    Node bare = node("odd", Labels.of("nvidia.com/gpu.product", "NVIDIA-Mystery", "nvidia.com/gpu.replicas", "4"),
        "nvidia.com/gpu", "8");
    NodeGpus.Found.Gpus g = gpus(NodeGpus.of(bare, CATALOG, NO_TYPES));
    assertThat(g.inventory().model().memoryMiB()).isEmpty();
    assertThat(g.inventory().model().compute()).isEmpty();
    assertThat(g.inventory().count()).isEqualTo(2);
    assertThat(g.warnings()).singleElement().satisfies(w -> assertThat(w.message()).contains(
        "no label states its memory (nvidia.com/gpu.memory), so its memory is unknown",
        "no labels state its compute capability",
        "2 GPU(s) from status.capacity[nvidia.com/gpu] / 4 replicas"));
    Node nothing = node("none", Labels.of("nvidia.com/gpu.product", "NVIDIA-Mystery"));
    assertThat(gpus(NodeGpus.of(nothing, CATALOG, NO_TYPES)).warnings().getFirst().message())
        .contains("1 GPU(s) assumed, as neither label nvidia.com/gpu.count nor status.capacity[nvidia.com/gpu] states");
  }

  @Test
  void aMalformedMemoryOrComputeIsReportedAndLeftUnknown() {
    Node n = node("n", h20Labels().with("nvidia.com/gpu.memory", "96Gi").with("nvidia.com/gpu.compute.minor", "x"));
    NodeGpus.Found.Gpus g = gpus(NodeGpus.of(n, CATALOG, NO_TYPES));
    assertThat(g.inventory().model().memoryMiB()).isEmpty();
    assertThat(g.inventory().model().compute()).isEmpty();
    assertThat(g.warnings().getFirst().message()).contains(
        "label nvidia.com/gpu.memory \"96Gi\" is not a positive number of MiB",
        "are not a compute capability, so it is unknown");
  }

  @Test
  void aUsersCatalogueResolvesTheCardWithoutAWarning() throws Exception {
    GpuCatalog mine = CATALOG.with(GpuCatalog.parse("mine.txt", new StringReader(
        "gpu H20\n  product NVIDIA H20\n  memory-mib 97871\n  compute 9.0\n  source node labels\n")));
    NodeGpus.Found.Gpus g = gpus(NodeGpus.of(node("h20-0", h20Labels()), mine, NO_TYPES));
    assertThat(g.inventory().model().id()).isEqualTo("H20");
    assertThat(g.warnings()).isEmpty();
  }

  /**
   * MIG single: {@code <card>-MIG-<profile>}, count = MIG devices. The A100-40GB's 1g.5gb fits 7 to a
   * card, so 56 devices (GFD README's single-strategy example) are 8 cards; 50 are 8 as well (rounded up).
   */
  @Test
  void migSingleNamesItsCardAndCountsCardsFromTheProfile() {
    GpuModel a100 = CATALOG.byId("A100-40GB").orElseThrow();
    int perCard = a100.migProfileByLabel("1g.5gb").orElseThrow().maxInstances();
    for (int devices : new int[] {56, 50}) {
      Node dgx = node("dgx", Labels.of("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb",
          "nvidia.com/gpu.count", Integer.toString(devices), "nvidia.com/gpu.memory", "5120",
          "nvidia.com/mig.strategy", "single"));
      NodeGpus.Found.Gpus g = gpus(NodeGpus.of(dgx, CATALOG, NO_TYPES));
      assertThat(g.inventory().model()).isEqualTo(a100);
      assertThat(g.inventory().count()).isEqualTo((devices + perCard - 1) / perCard);
      assertThat(g.warnings()).singleElement().satisfies(w -> assertThat(w.message())
          .contains(devices + " MIG 1g.5gb device(s)", "at most " + perCard + " per card",
              g.inventory().count() + " card(s) are assumed"));
    }
    // Shared (time-sliced) MIG devices carry -SHARED after the profile.
    Node shared = node("s", Labels.of("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb-SHARED",
        "nvidia.com/gpu.count", "7"));
    assertThat(gpus(NodeGpus.of(shared, CATALOG, NO_TYPES)).inventory().count()).isEqualTo(1);
  }

  @Test
  void migSingleTakesTheCardsFromAnInstanceTypeOfTheSameCard() {
    InstanceTypeGpus aws = t -> t.equals("p4d.24xlarge") ? Optional.of(new InstanceTypeGpus.Attached("a100", 8))
        : Optional.empty();
    Node p4d = node("p4d", Labels.of("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB-MIG-3g.20gb",
        "nvidia.com/gpu.count", "16", "node.kubernetes.io/instance-type", "p4d.24xlarge"));
    NodeGpus.Found.Gpus g = gpus(NodeGpus.of(p4d, CATALOG, aws));
    assertThat(g.inventory().count()).isEqualTo(8);
    assertThat(g.source()).isEqualTo("instance type p4d.24xlarge");
    assertThat(g.warnings()).isEmpty();
  }

  @Test
  void migSingleOfAnUnknownCardOrProfileReadsEachDeviceAsAWholeGpu() {
    Node h20 = node("h20-mig", Labels.of("nvidia.com/gpu.product", "NVIDIA-H20-MIG-1g.12gb",
        "nvidia.com/gpu.count", "56", "nvidia.com/gpu.memory", "12032", "nvidia.com/gpu.compute.major", "9",
        "nvidia.com/gpu.compute.minor", "0"));
    NodeGpus.Found.Gpus g = gpus(NodeGpus.of(h20, CATALOG, NO_TYPES));
    assertThat(g.inventory().model().productLabel()).isEqualTo("NVIDIA-H20-MIG-1g.12gb");
    assertThat(g.inventory().model().memoryMiB()).hasValue(12032);
    assertThat(g.inventory().count()).isEqualTo(56);
    assertThat(g.warnings().getFirst().message()).contains("\"NVIDIA-H20\", a card not in the GPU catalogue",
        "56 MIG device(s), each read as a whole GPU,", "no MIG layout is modelled");
    Node oddProfile = node("a100-odd", Labels.of("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB-MIG-9g.99gb",
        "nvidia.com/gpu.count", "2"));
    assertThat(gpus(NodeGpus.of(oddProfile, CATALOG, NO_TYPES)).warnings().getFirst().message())
        .contains("profile 9g.99gb, which the catalogue's A100-40GB does not list");
  }

  /** GFD's -MIG-INVALID (newInvalidMigStrategyLabeler) counts nothing: only an instance type can count the cards. */
  @Test
  void migInvalidIsReadFromTheInstanceTypeOrLeftUnresolved() {
    Labels invalid = Labels.of("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB-MIG-INVALID", "nvidia.com/gpu.count",
        "0", "node.kubernetes.io/instance-type", "p4de.24xlarge");
    assertThat(NodeGpus.of(node("x", invalid), CATALOG, NO_TYPES)).isInstanceOfSatisfying(
        NodeGpus.Found.Unresolved.class, u -> assertThat(u.reason()).contains("MIG-INVALID"));
    InstanceTypeGpus aws = t -> Optional.of(new InstanceTypeGpus.Attached("a100-80gb", 8));
    NodeGpus.Found.Gpus g = gpus(NodeGpus.of(node("x", invalid), CATALOG, aws));
    assertThat(g.inventory().count()).isEqualTo(8);
    assertThat(g.warnings().getFirst().message()).contains("breaks mig-strategy single");
  }

  /** The node's own labels, unreadable, leave it without modelled GPUs (a warning); the user's annotation is an error. */
  @Test
  void unreadableLabelsAreUnresolvedAndABadAnnotationIsInvalid() {
    Node badCount = node("b", Labels.of("nvidia.com/gpu.product", "NVIDIA-A10G", "nvidia.com/gpu.count", "eight"));
    assertThat(NodeGpus.of(badCount, CATALOG, NO_TYPES)).isEqualTo(new NodeGpus.Found.Unresolved(
        "metadata.labels[nvidia.com/gpu.count]", "expected an integer, found \"eight\""));
    Node tooMany = node("t", h20Labels().with("nvidia.com/gpu.count", "1000"));
    assertThat(NodeGpus.of(tooMany, CATALOG, NO_TYPES)).isInstanceOf(NodeGpus.Found.Unresolved.class);
    Node annotated = new Node(ObjectMeta.clusterScoped("a", Labels.EMPTY, Labels.of("gpufleet.io/gpus",
        "NVIDIA-H20:8")), List.of(), false, null, null, Optional.empty(), List.of());
    assertThat(NodeGpus.of(annotated, CATALOG, NO_TYPES)).isInstanceOfSatisfying(NodeGpus.Found.Invalid.class,
        i -> assertThat(i.reason()).contains("found \"NVIDIA-H20\"", "--gpu-catalog FILE"));
    Node malformed = new Node(ObjectMeta.clusterScoped("m", Labels.EMPTY, Labels.of("gpufleet.io/gpus",
        "NVIDIA-A10G:two")), List.of(), false, null, null, Optional.empty(), List.of());
    assertThat(NodeGpus.of(malformed, CATALOG, NO_TYPES)).isInstanceOf(NodeGpus.Found.Invalid.class);
  }

  @Test
  void anInstanceTypeOfACardTheCatalogueLacksIsReadWholeWithAWarning() {
    InstanceTypeGpus mine = t -> Optional.of(new InstanceTypeGpus.Attached("h20", 8));
    Node n = node("i", Labels.of("node.kubernetes.io/instance-type", "custom.8xh20"));
    NodeGpus.Found.Gpus g = gpus(NodeGpus.of(n, CATALOG, mine));
    assertThat(g.inventory().count()).isEqualTo(8);
    assertThat(g.inventory().model().memoryMiB()).isEmpty();
    assertThat(g.warnings().getFirst().field()).isEqualTo("metadata.labels[node.kubernetes.io/instance-type]");
  }
}
