package io.gpufleet.autoscaler.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodeOverlay;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.resource.ResourceList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How NodeOverlays change what each NodePool sees, after Karpenter's overlay store (store.go, controller.go). */
class NodeOverlaysTest {

  static final InstanceCatalog CATALOG = InstanceCatalog.builtIn();
  static final NodePool POOL = NodePool.of("general", NodeClaimTemplate.of(NodePoolRequirement.in(
      "karpenter.k8s.aws/instance-family", "m5")));
  static final NodePool OTHER = NodePool.of("other", NodeClaimTemplate.of(NodePoolRequirement.in(
      "karpenter.k8s.aws/instance-family", "m5")));

  static NodeOverlay price(String name, int weight, String change, NodePoolRequirement... reqs) {
    boolean signed = change.startsWith("+") || change.startsWith("-");
    return new NodeOverlay(name, List.of(reqs), signed ? Optional.empty() : Optional.of(change),
        signed ? Optional.of(change) : Optional.empty(), ResourceList.EMPTY, weight);
  }

  static double onDemand(InstanceType t) {
    return t.offerings().stream().filter(o -> o.capacityType().wireName().equals("on-demand")).findFirst()
        .orElseThrow().pricePerHour();
  }

  @Test
  void aPriceAppliesToTheMatchingTypesOfTheMatchingNodePoolOnly() {
    NodeOverlays o = NodeOverlays.of(List.of(price("cheap-large", 0, "0.01",
        NodePoolRequirement.in("karpenter.sh/nodepool", "general"),
        NodePoolRequirement.in("node.kubernetes.io/instance-type", "m5.large"))), List.of(POOL, OTHER), CATALOG);
    InstanceType large = CATALOG.require("m5.large");
    assertThat(onDemand(o.apply("general", large))).isEqualTo(0.01);
    assertThat(o.apply("other", large)).isSameAs(large);
    assertThat(o.apply("general", CATALOG.require("m5.xlarge"))).isSameAs(CATALOG.require("m5.xlarge"));
    assertThat(o.appliedTo("general", "m5.large")).containsExactly("cheap-large");
  }

  @Test
  void anAdjustmentMovesThePriceAndOnlyTheOfferingsItAdmits() {
    NodeOverlays o = NodeOverlays.of(List.of(price("spot-up", 0, "+50%",
        NodePoolRequirement.in("karpenter.sh/capacity-type", "spot"))), List.of(POOL), CATALOG);
    InstanceType large = CATALOG.require("m5.large");
    InstanceType seen = o.apply("general", large);
    for (int i = 0; i < large.offerings().size(); i++) {
      var before = large.offerings().get(i);
      var after = seen.offerings().get(i);
      double expected = before.capacityType().wireName().equals("spot") ? before.pricePerHour() * 1.5
          : before.pricePerHour();
      assertThat(after.pricePerHour()).isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-9));
    }
  }

  @Test
  void theHigherWeightWinsAndEqualWeightsOnTheSameOfferingConflict() {
    NodePoolRequirement large = NodePoolRequirement.in("node.kubernetes.io/instance-type", "m5.large");
    NodeOverlays weighted = NodeOverlays.of(List.of(price("low", 1, "0.5", large), price("high", 10, "0.02", large)),
        List.of(POOL), CATALOG);
    assertThat(onDemand(weighted.apply("general", CATALOG.require("m5.large")))).isEqualTo(0.02);
    assertThat(weighted.conflicting()).isEmpty();

    // Same weight: ordered by name, the later first ("b"); "a" would set the same offerings' price.
    NodeOverlays tied = NodeOverlays.of(List.of(price("a", 5, "0.5", large), price("b", 5, "0.02", large)),
        List.of(POOL), CATALOG);
    assertThat(tied.conflicting()).containsExactly("a");
    assertThat(onDemand(tied.apply("general", CATALOG.require("m5.large")))).isEqualTo(0.02);
  }

  @Test
  void capacityAddsExtendedResourcesTheProvisionerCounts() {
    NodeOverlay fuse = new NodeOverlay("fuse", List.of(NodePoolRequirement.in("node.kubernetes.io/instance-type",
        "m5.xlarge")), Optional.empty(), Optional.empty(), ResourceList.of("smarter-devices/fuse", "2"), 0);
    NodeOverlays o = NodeOverlays.of(List.of(fuse), List.of(POOL), CATALOG);
    assertThat(o.apply("general", CATALOG.require("m5.xlarge")).allocatable().toString())
        .contains("smarter-devices/fuse: 2");
    // A pod asking for the resource is planned onto the overlaid type, the only one that has it.
    var pod = new io.gpufleet.model.pod.Pod(io.gpufleet.model.meta.ObjectMeta.named("p"),
        io.gpufleet.model.pod.PodSpec.of(io.gpufleet.model.pod.Container.of("c", "i",
            ResourceList.of("cpu", "1", "smarter-devices/fuse", "1"), ResourceList.of("smarter-devices/fuse", "1"))));
    Provisioner p = new Provisioner(ProvisioningModel.of(List.of(POOL), CATALOG, List.of(),
        io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin.DEFAULTS, io.gpufleet.autoscaler.AutoscalerSettings.GpuSizing.PHYSICAL,
        o));
    var plan = p.solve(List.of(pod), List.of(), List.of(), io.gpufleet.autoscaler.state.OfferingAvailability.ALL,
        java.time.Instant.EPOCH);
    assertThat(plan.newClaims()).singleElement().satisfies(c -> assertThat(c.instanceTypes().stream()
        .map(InstanceType::name)).containsExactly("m5.xlarge"));
  }
}
