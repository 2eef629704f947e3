package io.gpufleet.autoscaler.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings.DraRequests;
import io.gpufleet.autoscaler.AutoscalerSettings.GpuSizing;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.DraObject;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.PodResourceClaim;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.dra.ResourceClaimSpec;
import io.gpufleet.model.dra.ResourceClaimTemplate;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** gpufleet's DRA-aware sizing ({@code draRequests: allocate}) beside Karpenter's refusal. */
class DraSizingTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final InstanceCatalog CATALOG = InstanceCatalog.builtIn();
  /** A GPU pool whose nodes leave their cards to NVIDIA's DRA driver (the GPU Operator's device plugin off). */
  static final NodePool GPU = NodePool.of("gpu", NodeClaimTemplate.of(
      NodePoolRequirement.in("karpenter.k8s.aws/instance-family", "g5", "g6"))
      .withLabels(Labels.of("nvidia.com/gpu.deploy.device-plugin", "false")));
  /** The same instance types with the device plugin on, as a GPU Operator runs it by default. */
  static final NodePool PLUGIN = NodePool.of("plugin", NodeClaimTemplate.of(
      NodePoolRequirement.in("karpenter.k8s.aws/instance-family", "g5", "g6")));
  static final String L4 = "device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA L4\"";

  static ResourceClaimSpec gpus(long count, String... selectors) {
    return new ResourceClaimSpec(List.of(new DeviceRequest("gpu", "gpu.nvidia.com", List.of(selectors),
        DeviceRequest.AllocationMode.EXACT_COUNT, count)));
  }

  static Pod pod(String name, PodResourceClaim... claims) {
    PodSpec spec = PodSpec.of(Container.of("main", "app", ResourceList.of("cpu", "1"), ResourceList.EMPTY));
    return new Pod(new ObjectMeta(name, "default", Labels.EMPTY, Labels.EMPTY, Optional.empty()),
        spec.withResourceClaims(List.of(claims)));
  }

  static PodResourceClaim template(String name) {
    return new PodResourceClaim.FromTemplate("gpu", name);
  }

  static ProvisioningPlan solve(DraRequests mode, List<DraObject> objects, List<Pod> pods, List<StateNode> nodes) {
    return solve(List.of(GPU), mode, objects, pods, nodes);
  }

  static ProvisioningPlan solve(List<NodePool> pools, DraRequests mode, List<DraObject> objects, List<Pod> pods,
      List<StateNode> nodes) {
    DraProvisioning dra = new DraProvisioning(mode, DraObjects.of(objects), GpuCatalog.builtIn());
    Provisioner p = new Provisioner(ProvisioningModel.of(pools, CATALOG, List.of(), NvidiaDevicePlugin.DEFAULTS,
        GpuSizing.PHYSICAL, NodeOverlays.NONE, Map.of(), dra));
    return p.solve(pods, nodes, List.of(), OfferingAvailability.ALL, T0);
  }

  static List<String> gpuNames(PlannedClaim c) {
    return c.instanceTypes().stream().map(t -> t.gpu().orElseThrow().name()).distinct().toList();
  }

  /** A NodeClaim of the GPU pool launched as {@code type} and not yet up, with {@code pods} bound to it. */
  static StateNode inFlight(String type, Pod... pods) {
    return inFlight(GPU, type, pods);
  }

  static StateNode inFlight(NodePool pool, String type, Pod... pods) {
    InstanceType t = CATALOG.require(type);
    NodeClaim c = Launcher.nodeClaim(pool, t, t.cheapest(o -> o.capacityType() == CapacityType.ON_DEMAND)
        .orElseThrow(), ResourceList.EMPTY, T0, new SplittableRandom(3));
    return new StateNode(c.name(), Optional.of(c), Optional.empty(), List.of(pods), Set.of(), T0, false);
  }

  @Test
  void karpenterRefusesTheClaimingPodWhereTheExtensionPicksTheMatchingGpu() {
    List<DraObject> objects = List.of(new ResourceClaimTemplate("default", "l4", gpus(1, L4)));
    Pod p = pod("p", template("l4"));
    ProvisioningPlan karpenter = solve(DraRequests.IGNORE, objects, List.of(p), List.of());
    assertThat(karpenter.newClaims()).isEmpty();
    assertThat(karpenter.errors()).containsEntry(p.key(), DraProvisioning.NOT_SUPPORTED);
    assertThat(karpenter.draSized()).isEmpty();

    ProvisioningPlan twin = solve(DraRequests.ALLOCATE, objects, List.of(p), List.of());
    assertThat(twin.errors()).isEmpty();
    assertThat(twin.newClaims()).hasSize(1);
    // Without the selector the A10G types (g5) would be open too.
    assertThat(gpuNames(twin.newClaims().getFirst())).containsExactly("l4");
    assertThat(twin.draSized()).containsOnlyKeys(p.key());
  }

  @Test
  void aCountOfDevicesLeavesOnlyTypesWithThatManyGpus() {
    Pod p = pod("p", template("four"));
    ProvisioningPlan plan = solve(DraRequests.ALLOCATE,
        List.of(new ResourceClaimTemplate("default", "four", gpus(4))), List.of(p), List.of());
    assertThat(plan.newClaims().getFirst().instanceTypes()).isNotEmpty()
        .allSatisfy(t -> assertThat(t.gpuCount()).isGreaterThanOrEqualTo(4));
  }

  @Test
  void aSelectorNoInstanceTypeMeetsIsSaid() {
    Pod p = pod("p", template("b200"));
    ProvisioningPlan plan = solve(DraRequests.ALLOCATE, List.of(new ResourceClaimTemplate("default", "b200",
        gpus(1, "device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA B200\""))), List.of(p), List.of());
    assertThat(plan.newClaims()).isEmpty();
    assertThat(plan.errors().get(p.key())).contains(SchedulingMessages.DRA_UNSATISFIED);
  }

  @Test
  void aTemplateThatDoesNotExistLeavesThePodWaitingForItsClaim() {
    Pod p = pod("p", template("missing"));
    ProvisioningPlan plan = solve(DraRequests.ALLOCATE, List.of(), List.of(p), List.of());
    assertThat(plan.errors()).containsEntry(p.key(),
        "Failed to schedule pod, pod \"default/p\": ResourceClaim not created yet");
  }

  @Test
  void podsSharingOneClaimGoToTheOneNodeItIsAllocatedOn() {
    List<DraObject> objects = List.of(new ResourceClaim("default", "shared", gpus(1, L4)));
    List<Pod> pods = List.of(pod("a", new PodResourceClaim.Named("gpu", "shared")),
        pod("b", new PodResourceClaim.Named("gpu", "shared")),
        pod("c", new PodResourceClaim.Named("gpu", "shared")));
    ProvisioningPlan plan = solve(DraRequests.ALLOCATE, objects, pods, List.of());
    assertThat(plan.errors()).isEmpty();
    assertThat(plan.newClaims()).hasSize(1);
    assertThat(plan.newClaims().getFirst().pods()).containsExactlyInAnyOrderElementsOf(pods);
  }

  @Test
  void aDeviceHeldByABoundPodIsNotGivenTwice() {
    List<DraObject> objects = List.of(new ResourceClaimTemplate("default", "l4", gpus(1, L4)));
    Pod holder = pod("holder", template("l4"));
    Pod next = pod("next", template("l4"));
    // The in-flight g6.xlarge's one L4 is free: the pod is nominated there.
    assertThat(solve(DraRequests.ALLOCATE, objects, List.of(next), List.of(inFlight("g6.xlarge"))).onExisting())
        .containsOnlyKeys(next.key());
    // Held by a bound pod's claim: a new NodeClaim instead.
    ProvisioningPlan plan = solve(DraRequests.ALLOCATE, objects, List.of(next),
        List.of(inFlight("g6.xlarge", holder)));
    assertThat(plan.onExisting()).isEmpty();
    assertThat(plan.newClaims()).hasSize(1);
  }

  @Test
  void aNodePoolWhoseNodesRunTheDevicePluginGetsNoDraPodAndSaysWhy() {
    List<DraObject> objects = List.of(new ResourceClaimTemplate("default", "l4", gpus(1, L4)));
    Pod p = pod("p", template("l4"));
    ProvisioningPlan plugin = solve(List.of(PLUGIN), DraRequests.ALLOCATE, objects, List.of(p), List.of());
    assertThat(plugin.newClaims()).isEmpty();
    assertThat(plugin.errors().get(p.key())).contains(SchedulingMessages.draDriverOff("plugin"));
    // Beside a pool that leaves its cards to the driver, the pod goes there.
    ProvisioningPlan both = solve(List.of(PLUGIN, GPU), DraRequests.ALLOCATE, objects, List.of(p), List.of());
    assertThat(both.errors()).isEmpty();
    assertThat(both.newClaims()).singleElement().satisfies(c -> assertThat(c.nodePool()).isEqualTo("gpu"));
  }

  @Test
  void anInFlightNodeOfADevicePluginPoolOffersNoDevices() {
    List<DraObject> objects = List.of(new ResourceClaimTemplate("default", "l4", gpus(1, L4)));
    Pod next = pod("next", template("l4"));
    ProvisioningPlan plan = solve(List.of(PLUGIN, GPU), DraRequests.ALLOCATE, objects, List.of(next),
        List.of(inFlight(PLUGIN, "g6.xlarge")));
    assertThat(plan.onExisting()).isEmpty();
    assertThat(plan.newClaims()).singleElement().satisfies(c -> assertThat(c.nodePool()).isEqualTo("gpu"));
  }
}
