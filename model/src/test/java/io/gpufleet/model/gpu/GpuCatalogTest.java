package io.gpufleet.model.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GpuCatalogTest {

  private final GpuCatalog catalog = GpuCatalog.builtIn();

  @Test
  void holdsEveryModelTheIssueNames() {
    assertThat(catalog.models()).extracting(GpuModel::id).contains(
        "T4", "A10G", "L4", "L40S", "A30", "A100-40GB", "A100-80GB", "H100-80GB", "H100-NVL", "H200-141GB", "B200",
        "G2", "G3", "P100", "V100M16", "V100M32", "A10", "H100-PCIe", "A100-80GB-PCIe", "H200-NVL", "GH200-96GB",
        "GH200-144GB", "GB200", "RTX-PRO-6000");
  }

  /**
   * Product strings and NVML memory as public nvidia-smi outputs show them, PCI IDs from the driver's
   * supported-products table, and the profile count each model's MIG list has.
   */
  @ParameterizedTest
  @CsvSource({
      "H100-PCIe, NVIDIA-H100-PCIe, 81559, 0x233110DE, hopper, 7",
      "A100-80GB-PCIe, NVIDIA-A100-80GB-PCIe, 81920, 0x20B510DE, ampere, 7",
      "H200-NVL, NVIDIA-H200-NVL, 143771, 0x233B10DE, hopper, 7",
      "GH200-96GB, NVIDIA-GH200-480GB, 97871, 0x234210DE, hopper, 7",
      "GB200, NVIDIA-GB200, 189471, 0x294110DE, blackwell, 7",
      "RTX-PRO-6000, NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition, 97887, 0x2BB510DE, blackwell, 11"})
  void newDataCentreModels(String id, String label, long mib, String pci, String family, int profiles) {
    GpuModel g = catalog.byId(id).orElseThrow();
    assertThat(g.productLabel()).isEqualTo(label);
    assertThat(g.memoryMiB()).hasValue(mib);
    assertThat(g.memoryNominal()).isFalse();
    assertThat(g.pciDeviceId()).hasValue(pci);
    assertThat(g.family()).isEqualTo(family);
    assertThat(g.migProfiles()).hasSize(profiles);
    assertThat(catalog.find(label)).hasValue(g);
  }

  @Test
  void everyModelNamesItsSources() {
    assertThat(catalog.models()).allSatisfy(g -> assertThat(g.sources()).isNotEmpty());
  }

  /** GFD product labels and families from k8s-gpu-semantics §3's example label sets. */
  @ParameterizedTest
  @CsvSource({
      "A10G, NVIDIA-A10G, 23028, ampere, false",
      "L4, NVIDIA-L4, 23034, ada-lovelace, false",
      "H100-80GB, NVIDIA-H100-80GB-HBM3, 81559, hopper, true",
      "H200-141GB, NVIDIA-H200, 143771, hopper, true"})
  void matchesTheObservedLabelSets(String id, String product, long memory, String family, boolean mig) {
    GpuModel g = catalog.byId(id).orElseThrow();
    assertThat(g.productLabel()).isEqualTo(product);
    assertThat(g.memoryMiB()).hasValue(memory);
    assertThat(g.memoryNominal()).isFalse();
    assertThat(g.family()).isEqualTo(family);
    assertThat(g.migCapable()).isEqualTo(mig);
  }

  @ParameterizedTest
  @CsvSource({"7.0, volta", "7.5, turing", "8.0, ampere", "8.6, ampere", "8.9, ada-lovelace", "9.0, hopper",
      "10.0, blackwell", "12.0, blackwell", "13.0, rubin", "6.0, pascal"})
  void familyFollowsComputeCapability(String cc, String family) {
    assertThat(ComputeCapability.parse(cc).family()).isEqualTo(family);
  }

  @Test
  void sanitisesProductNamesAsGfd() {
    assertThat(GpuModel.sanitise("NVIDIA H100 80GB HBM3")).isEqualTo("NVIDIA-H100-80GB-HBM3");
    assertThat(GpuModel.sanitise("Tesla  T4 (rev 2)")).isEqualTo("Tesla-T4-rev-2");
  }

  @Test
  void findsModelsByLabelAliasAndSuffixedLabel() {
    assertThat(catalog.find("NVIDIA-A10G")).map(GpuModel::id).hasValue("A10G");
    assertThat(catalog.find("NVIDIA-A10G-SHARED")).map(GpuModel::id).hasValue("A10G");
    assertThat(catalog.find("NVIDIA-H100-80GB-HBM3-MIG-1g.10gb")).map(GpuModel::id).hasValue("H100-80GB");
    assertThat(catalog.find("a10g")).map(GpuModel::id).hasValue("A10G");
    assertThat(catalog.find("V100M32")).map(GpuModel::id).hasValue("V100M32");
    assertThat(catalog.find("NVIDIA-K80")).isEmpty();
  }

  /** §4: every placement lies inside the geometry and a profile fits as many times as it claims. */
  @Test
  void migProfilesAreConsistentWithTheirGeometry() {
    for (GpuModel g : catalog.models()) {
      if (!g.migCapable()) {
        assertThat(g.migProfiles()).as(g.id()).isEmpty();
        continue;
      }
      MigGeometry geo = g.migGeometry().orElseThrow();
      for (MigProfile p : g.migProfiles()) {
        assertThat(p.placements()).as(g.id() + " " + p.name())
            .allSatisfy(pl -> assertThat(pl.end()).isLessThanOrEqualTo(geo.memorySlices()));
        assertThat(p.computeSlices()).isLessThanOrEqualTo(geo.computeSlices());
        int disjoint = disjointPlacements(p);
        int byCompute = geo.computeSlices() / p.computeSlices();
        int expected = p.mediaExtensions() ? 1 : Math.min(disjoint, byCompute);
        assertThat(p.maxInstances()).as(g.id() + " " + p.name()).isEqualTo(expected);
      }
    }
  }

  private static int disjointPlacements(MigProfile p) {
    int count = 0;
    int end = 0;
    for (MigPlacement pl : p.placements()) {
      if (pl.start() >= end) {
        count++;
        end = pl.end();
      }
    }
    return count;
  }

  @Test
  void h200ProfilesAreTheOnesMeasured() {
    GpuModel h200 = catalog.byId("H200-141GB").orElseThrow();
    assertThat(h200.migProfiles()).extracting(MigProfile::name)
        .containsExactly("1g.18gb", "1g.18gb+me", "1g.35gb", "2g.35gb", "3g.71gb", "4g.71gb", "7g.141gb");
    MigProfile p = h200.migProfile("3g.71gb").orElseThrow();
    assertThat(p.memoryMiB(h200)).isEqualTo(71424);
    assertThat(p.placements()).containsExactly(new MigPlacement(0, 4), new MigPlacement(4, 4));
    assertThat(h200.migProfile("1g.18gb+me").orElseThrow().resourceName()).isEqualTo("nvidia.com/mig-1g.18gb.me");
  }

  @Test
  void unknownMigMemoryIsEstimatedFromTheSliceShare() {
    // The H100 80GB's 1g.20gb: -lgip prints 19.62 GiB, too coarse to give its MiB, so it is a share.
    GpuModel h100 = catalog.byId("H100-80GB").orElseThrow();
    MigProfile p = h100.migProfile("1g.20gb").orElseThrow();
    assertThat(p.memoryObserved()).isFalse();
    assertThat(p.memoryMiB(h100)).isEqualTo(81559 * 2 / 8);
  }

  @Test
  void observedMigMemoryIsTheLgipFigure() {
    // A public nvidia-smi mig -lgip on an H100 80GB HBM3 prints 9.75 GiB for 1g.10gb.
    GpuModel h100 = catalog.byId("H100-80GB").orElseThrow();
    MigProfile p = h100.migProfile("1g.10gb").orElseThrow();
    assertThat(p.memoryObserved()).isTrue();
    assertThat(p.memoryMiB(h100)).isEqualTo(9984);
  }

  /** The hand-made split reads each line as {@code split("\\s+")} would, which it replaced. */
  @Test
  void wordsSplitAsTheWhitespacePatternDoes() {
    for (String v : java.util.List.of("", "a", "1g.10gb gi=19 ci=1 mem=1", "a  b\tc\u000Bd\fe\rf\ng", "x\u00A0y z",
        "H100 h100-80gb  H100-SXM5-80GB")) {
      assertThat(GpuCatalog.words(v)).as(v).containsExactly(v.split("\\s+"));
    }
  }

  @Test
  void rejectsMalformedCatalogues() {
    assertThatThrownBy(() -> GpuCatalog.parse("x.txt", new StringReader("gpu X\n  colour red\n")))
        .hasMessageStartingWith("x.txt:2:3: unknown key \"colour\" (expected one of product, memory-mib,");
    assertThatThrownBy(() -> GpuCatalog.parse("x.txt", new StringReader("gpu X\n  product X\n")))
        .hasMessage("x.txt:1:1: X: every model needs at least one source line");
  }

  /** Each problem names the line and the column of what is wrong: the key, or the value that cannot be read. */
  @Test
  void formatErrorsNameLineAndColumn() {
    String h20 = "# a user's file\ngpu H20\n  product NVIDIA H20\n  memory-mib lots\n  source node labels\n";
    assertThatThrownBy(() -> GpuCatalog.parse("mine.txt", new StringReader(h20)))
        .isInstanceOfSatisfying(GpuCatalogFormatException.class, e -> {
          assertThat(e.line()).isEqualTo(4);
          assertThat(e.column()).isEqualTo(14);
          assertThat(e.detail()).isEqualTo("memory-mib: expected a number, found \"lots\"");
        });
    String profile = "gpu X\n  product X\n  memory-mib 100\n  mig 8x7\n  profile 1g.5gb ci=1 mem=1 max=seven starts=0\n"
        + "  source s\n";
    assertThatThrownBy(() -> GpuCatalog.parse("p.txt", new StringReader(profile)))
        .hasMessage("p.txt:5:11: profile: expected a number, found \"seven\" in \"1g.5gb ci=1 mem=1 max=seven starts=0\"");
    assertThatThrownBy(() -> GpuCatalog.parse("d.txt", new StringReader("gpu X\n  product X\n  source s\n"
        + "gpu X\n  product Y\n  source s\n")))
        .hasMessage("d.txt:4:5: GPU model \"X\" is already defined at line 1 of this file");
    assertThatThrownBy(() -> GpuCatalog.parse("o.txt", new StringReader("  product X\n")))
        .hasMessage("o.txt:1:3: expected \"gpu <id>\" before \"product\"");
    assertThatThrownBy(() -> GpuCatalog.parse("c.txt", new StringReader("gpu X\n  product X\n  compute nine\n")))
        .hasMessageStartingWith("c.txt:3:11: compute: expected a compute capability such as 8.6");
  }

  /** A user's catalogue extends the built-in one and overrides a model by its id or by its product. */
  @Test
  void aUsersCatalogueExtendsAndOverrides() throws Exception {
    GpuCatalog mine = GpuCatalog.parse("mine.txt", new StringReader("""
        gpu H20
          product NVIDIA H20
          memory-mib 97871
          compute 9.0
          aliases h20
          source node labels
        gpu A10G
          product NVIDIA A10G
          memory-mib 23000
          source a corrected figure
        gpu MyT4
          product Tesla T4
          memory-mib 15360
          source observed
        """));
    GpuCatalog both = catalog.with(mine);
    assertThat(both.find("NVIDIA-H20")).map(GpuModel::id).hasValue("H20");
    assertThat(both.find("h20")).map(GpuModel::id).hasValue("H20");
    assertThat(both.find("NVIDIA-A10G").orElseThrow().memoryMiB()).hasValue(23000);
    assertThat(both.find("Tesla-T4")).map(GpuModel::id).hasValue("MyT4");
    assertThat(both.byId("T4")).isEmpty();
    // Everything else is the built-in catalogue's, in its order; the overridden A10G keeps its place.
    assertThat(both.models()).hasSize(catalog.models().size() + 1);
    assertThat(both.models().indexOf(both.byId("A10G").orElseThrow()))
        .isEqualTo(catalog.models().indexOf(catalog.byId("A10G").orElseThrow()));
    assertThat(both.byId("H100-80GB")).isEqualTo(catalog.byId("H100-80GB"));
    assertThat(catalog.find("NVIDIA-H20")).isEmpty();
  }

  /** A card read from a node: its product is id and name, its figures the node's, and it has no MIG profiles. */
  @Test
  void aDiscoveredCardIsWholeAndCarriesItsSources() {
    GpuModel h20 = new DiscoveredGpu("NVIDIA-H20", java.util.OptionalLong.of(97871),
        java.util.Optional.of(new ComputeCapability(9, 0)), java.util.List.of("memory from a label")).model();
    assertThat(h20.id()).isEqualTo("NVIDIA-H20");
    assertThat(h20.productLabel()).isEqualTo("NVIDIA-H20");
    assertThat(h20.family()).isEqualTo("hopper");
    assertThat(h20.migCapable()).isFalse();
    assertThat(h20.migProfiles()).isEmpty();
    assertThat(h20.sources()).containsExactly("memory from a label");
    assertThatThrownBy(() -> new DiscoveredGpu(" ", java.util.OptionalLong.empty(), java.util.Optional.empty(),
        java.util.List.of())).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void inventoryUuidsAreStablePerNodeAndIndex() {
    GpuInventory inv = new GpuInventory("node-a", catalog.byId("A10G").orElseThrow(), 2);
    assertThat(inv.gpus()).extracting(PhysicalGpu::uuid).doesNotHaveDuplicates()
        .allSatisfy(u -> assertThat(u).startsWith("GPU-"));
    assertThat(inv.gpu(1).uuid()).isEqualTo(new GpuInventory("node-a", inv.model(), 4).gpu(1).uuid());
    assertThat(inv.gpu(0).uuid()).isNotEqualTo(new GpuInventory("node-b", inv.model(), 2).gpu(0).uuid());
  }
}
