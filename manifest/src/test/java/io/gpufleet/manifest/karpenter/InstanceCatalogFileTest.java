package io.gpufleet.manifest.karpenter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceName;
import org.junit.jupiter.api.Test;

class InstanceCatalogFileTest {

  @Test
  void yamlExtendsTheBuiltInCatalogueWithItsOwnPricing() {
    InstanceCatalogFile file = InstanceCatalogFile.read("prices.yaml", """
        apiVersion: gpufleet.io/v1alpha1
        kind: InstanceCatalog
        spec:
          pricing: {zones: [eu-west-1a], spotPriceRatio: 0.5, region: eu-west-1}
          instanceTypes:
          - name: g6.xlarge
            vcpu: 4
            memory: 16Gi
            maxPods: 58
            gpu: {name: l4, count: 1, memory: 22888Mi}
            onDemandPrice: 0.9
            spotPrice: 0.3
        """);
    InstanceCatalog catalog = file.applyToBuiltIn();
    var g6 = catalog.require("g6.xlarge");
    assertThat(g6.onDemandPrice()).isEqualTo(0.9);
    assertThat(g6.cheapest(o -> o.capacityType() == CapacityType.SPOT).orElseThrow().pricePerHour()).isEqualTo(0.3);
    assertThat(g6.allocatable().getOrZero(ResourceName.MEMORY)).isEqualTo(Quantity.parse("14162Mi"));
    assertThat(g6.allocatable().getOrZero(ResourceName.NVIDIA_GPU)).isEqualTo(Quantity.of(1));
    assertThat(catalog.require("g5.xlarge").offerings()).allMatch(o -> o.zone().equals("eu-west-1a"));
    assertThat(catalog.require("g5.xlarge").cheapest(o -> true).orElseThrow().pricePerHour()).isEqualTo(0.503);
  }

  @Test
  void replaceKeepsOnlyTheFilesTypes() {
    InstanceCatalogFile file = InstanceCatalogFile.read("only.yml", """
        apiVersion: gpufleet.io/v1alpha1
        kind: InstanceCatalog
        spec:
          mode: Replace
          instanceTypes:
          - {name: kwok.gpu-4x, vcpu: 4, memory: 16Gi, maxPods: 110, gpu: {name: l4, count: 1}, onDemandPrice: 1,
             offerings: [{capacityType: on-demand, zone: test-zone-a, price: 1}]}
        """);
    InstanceCatalog catalog = file.applyToBuiltIn();
    assertThat(catalog.types()).singleElement().satisfies(t -> assertThat(t.offerings()).hasSize(1));
  }

  @Test
  void tablesExtendAndErrorsCarryTheirLine() {
    InstanceCatalogFile file = InstanceCatalogFile.read("extra.txt", "x1.large amd64 2 8192 0 - - - - - 29 0.05\n");
    assertThat(file.applyToBuiltIn().find("x1.large")).isPresent();
    assertThatThrownBy(() -> InstanceCatalogFile.read("extra.txt", "\nx1.large amd64 2 8192 0 - - - - - 29 cheap\n"))
        .isInstanceOf(ManifestException.class)
        .hasMessage("extra.txt:2:1: onDemandPerHour: expected a price in $/h, found \"cheap\"");
    assertThatThrownBy(() -> InstanceCatalogFile.read("c.yaml", """
        apiVersion: gpufleet.io/v1alpha1
        kind: InstanceCatalog
        spec:
          mode: Sometimes
        """)).hasMessageContaining("c.yaml:4:9: spec.mode: expected Extend or Replace, found \"Sometimes\"");
  }
}
