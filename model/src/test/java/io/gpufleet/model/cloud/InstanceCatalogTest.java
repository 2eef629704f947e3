package io.gpufleet.model.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceName;
import java.util.List;
import org.junit.jupiter.api.Test;

class InstanceCatalogTest {

  private final InstanceCatalog catalog = InstanceCatalog.builtIn();

  @Test
  void theBuiltInCatalogueHoldsTheReferenceGpuFamiliesAndSomeCpuTypes() {
    for (String family : List.of("g4dn", "g5", "g6", "g6e", "p4d", "p4de", "p5", "p5en", "p6-b200", "m5", "c5")) {
      assertThat(catalog.types()).as(family).anyMatch(t -> t.family().equals(family));
    }
    assertThat(catalog.size()).isEqualTo(46);
  }

  @Test
  void aRowCarriesTheReferenceFigures() {
    InstanceType g5 = catalog.require("g5.xlarge");
    assertThat(g5.vcpu()).isEqualTo(4);
    assertThat(g5.memoryMib()).isEqualTo(16384);
    assertThat(g5.gpu()).contains(new GpuSpec("a10g", "nvidia", 1, 22888));
    assertThat(g5.allocatable().getOrZero(ResourceName.CPU)).isEqualTo(Quantity.parse("3920m"));
    assertThat(g5.allocatable().getOrZero(ResourceName.MEMORY)).isEqualTo(Quantity.parse("14162Mi"));
    assertThat(g5.allocatable().getOrZero(ResourceName.NVIDIA_GPU)).isEqualTo(Quantity.of(1));
    assertThat(g5.maxPods()).isEqualTo(58);
    assertThat(g5.onDemandPrice()).isEqualTo(1.006);
  }

  @Test
  void everyTypeHasTheDefaultRootVolumesEphemeralStorage() {
    // 20Gi root volume - 1Gi kube-reserved - 10 % (2Gi) nodefs eviction threshold, as Karpenter's AWS provider.
    for (InstanceType t : catalog.types()) {
      assertThat(t.allocatable().getOrZero(ResourceName.EPHEMERAL_STORAGE)).as(t.name()).isEqualTo(Quantity.parse("17Gi"));
    }
    assertThat(AllocatableEstimate.ephemeralStorageBytes(100L << 30)).isEqualTo((100L << 30) - (1L << 30) - (10L << 30));
  }

  @Test
  void karpentersAllocatableFormulaReproducesEveryRow() {
    for (InstanceType t : catalog.types()) {
      var estimate = AllocatableEstimate.of(t.vcpu(), t.memoryMib(), (int) t.maxPods());
      assertThat(t.allocatable().getOrZero(ResourceName.CPU)).as(t.name()).isEqualTo(estimate.getOrZero(ResourceName.CPU));
      assertThat(t.allocatable().getOrZero(ResourceName.MEMORY)).as(t.name())
          .isEqualTo(estimate.getOrZero(ResourceName.MEMORY));
    }
  }

  @Test
  void offeringsAreSpotAndOnDemandInEveryZoneWithSpotAtTheRatio() {
    InstanceType g6 = catalog.require("g6.xlarge");
    assertThat(g6.offerings()).hasSize(6);
    Offering cheapest = g6.cheapest(o -> true).orElseThrow();
    assertThat(cheapest.capacityType()).isEqualTo(CapacityType.SPOT);
    assertThat(cheapest.zone()).isEqualTo("us-east-1a");
    assertThat(cheapest.pricePerHour()).isCloseTo(0.8048 * 0.7, org.assertj.core.data.Offset.offset(1e-12));
    InstanceCatalog deeper = InstanceCatalog.builtIn(Pricing.DEFAULT.withSpotPriceRatio(0.4));
    assertThat(deeper.require("g6.xlarge").cheapest(o -> o.capacityType() == CapacityType.SPOT).orElseThrow()
        .pricePerHour()).isCloseTo(0.8048 * 0.4, org.assertj.core.data.Offset.offset(1e-12));
  }

  @Test
  void labelsAreKarpentersWellKnownOnes() {
    var labels = catalog.require("p6-b200.48xlarge").labels();
    assertThat(labels.get(InstanceLabels.INSTANCE_FAMILY)).contains("p6-b200");
    assertThat(labels.get(InstanceLabels.INSTANCE_CATEGORY)).contains("p");
    assertThat(labels.get(InstanceLabels.INSTANCE_GENERATION)).contains("6");
    assertThat(labels.get(InstanceLabels.INSTANCE_SIZE)).contains("48xlarge");
    assertThat(labels.get(InstanceLabels.INSTANCE_GPU_NAME)).contains("b200");
    assertThat(labels.get(InstanceLabels.INSTANCE_GPU_COUNT)).contains("8");
    assertThat(labels.get(InstanceLabels.INSTANCE_GPU_MEMORY)).contains("183359");
    assertThat(catalog.require("m5.large").labels().has(InstanceLabels.INSTANCE_GPU_NAME)).isFalse();
  }

  @Test
  void capacityCountsPhysicalGpus() {
    assertThat(catalog.require("g6.48xlarge").capacity().getOrZero(ResourceName.NVIDIA_GPU)).isEqualTo(Quantity.of(8));
    assertThat(catalog.require("c5.large").capacity().contains(ResourceName.NVIDIA_GPU)).isFalse();
  }

  @Test
  void fillsTheGpuModelsInstanceTypeRole() {
    var gpus = catalog.instanceTypeGpus();
    assertThat(gpus.gpus("g5.12xlarge")).contains(new io.gpufleet.model.gpu.InstanceTypeGpus.Attached("a10g", 4));
    assertThat(gpus.gpus("p4de.24xlarge")).contains(new io.gpufleet.model.gpu.InstanceTypeGpus.Attached("a100-80gb",
        8));
    assertThat(gpus.gpus("m5.large")).isEmpty();
    for (InstanceType t : catalog.types()) {
      var attached = gpus.gpus(t.name());
      if (attached.isPresent() && !t.family().equals("p6-b300")) {
        assertThat(io.gpufleet.model.gpu.GpuCatalog.builtIn().find(attached.get().model())).as(t.name()).isPresent();
      }
    }
  }

  @Test
  void aUserTableExtendsOrReplaces() {
    String text = """
        # a cheaper g5.xlarge and a new type whose allocatable Karpenter estimates
        g5.xlarge  amd64 4 16384 1 nvidia a10g 22888 3920m 14162Mi 58 0.5
        x9.large   amd64 2 8192  0 -      -    -     -     -       29 0.05
        """;
    var extra = InstanceTable.parse("mine.txt", text, Pricing.DEFAULT);
    InstanceCatalog merged = catalog.extendedWith(extra);
    assertThat(merged.size()).isEqualTo(47);
    assertThat(merged.require("g5.xlarge").onDemandPrice()).isEqualTo(0.5);
    assertThat(merged.types().indexOf(merged.require("g5.xlarge"))).isEqualTo(catalog.types().indexOf(
        catalog.require("g5.xlarge")));
    assertThat(merged.require("x9.large").allocatable().getOrZero(ResourceName.MEMORY))
        .isEqualTo(Quantity.parse("6903Mi"));
  }

  @Test
  void badRowsSayWhereAndWhat() {
    assertThatThrownBy(() -> InstanceTable.parse("mine.txt", "\n\ng5.xlarge amd64 four 16384 1 nvidia a10g 1 - - 58 1",
        Pricing.DEFAULT))
        .isInstanceOf(CatalogFormatException.class)
        .hasMessage("mine.txt:3: vcpu: expected a non-negative integer, found \"four\"");
    assertThatThrownBy(() -> InstanceTable.parse("mine.txt", "g5.xlarge amd64 4", Pricing.DEFAULT))
        .hasMessageStartingWith("mine.txt:1: expected 12 columns");
  }
}
