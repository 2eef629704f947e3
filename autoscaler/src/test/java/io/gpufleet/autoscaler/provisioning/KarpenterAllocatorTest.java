package io.gpufleet.autoscaler.provisioning;

import static io.gpufleet.autoscaler.provisioning.DraSizingTest.L4;
import static io.gpufleet.autoscaler.provisioning.DraSizingTest.T0;
import static io.gpufleet.autoscaler.provisioning.DraSizingTest.gpus;
import static io.gpufleet.autoscaler.provisioning.DraSizingTest.inFlight;
import static io.gpufleet.autoscaler.provisioning.DraSizingTest.pod;
import static io.gpufleet.autoscaler.provisioning.DraSizingTest.solve;
import static io.gpufleet.autoscaler.provisioning.DraSizingTest.template;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings.DraRequests;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.DraObject;
import io.gpufleet.model.dra.ResourceClaimSpec;
import io.gpufleet.model.dra.ResourceClaimTemplate;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.ResourceList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Karpenter's DRA allocator ({@code ignoreDRARequests: false}) on AWS, whose instance types declare no
 * devices: an initialised node's published devices take a claim; nothing else does, and the pod is
 * told so in upstream's words.
 */
class KarpenterAllocatorTest {

  static final List<DraObject> L4_TEMPLATE = List.of(new ResourceClaimTemplate("default", "l4", gpus(1, L4)));

  /** A node outside Karpenter with one L4 whose GPU Operator leaves it to NVIDIA's DRA driver. */
  static StateNode draNode(String name) {
    Node n = Node.of(name, Labels.of("nvidia.com/gpu.product", "NVIDIA-L4", "nvidia.com/gpu.count", "1",
        "nvidia.com/gpu.deploy.device-plugin", "false"), List.of(), ResourceList.of("cpu", "8", "memory", "32Gi",
        "pods", "110"));
    return new StateNode(name, Optional.empty(), Optional.of(n), List.of(), Set.of(), T0, false);
  }

  @Test
  void aClaimTheDriverPublishedDevicesOfAnInitialisedNodeMeetGoesThereAndNothingIsLaunched() {
    Pod p = pod("p", template("l4"));
    ProvisioningPlan plan = solve(DraRequests.KARPENTER, L4_TEMPLATE, List.of(p), List.of(draNode("l4-node")));
    assertThat(plan.onExisting()).containsExactly(Map.entry(p.key(), "l4-node"));
    assertThat(plan.newClaims()).isEmpty();
    assertThat(plan.draSized()).as("Karpenter's own placement, not the extension's").isEmpty();
  }

  @Test
  void onAwsNoInstanceTypeDeclaresDevicesSoTheSecondPodGetsNoNode() {
    Pod first = pod("first", template("l4"));
    Pod second = pod("second", template("l4"));
    ProvisioningPlan plan = solve(DraRequests.KARPENTER, L4_TEMPLATE, List.of(first, second),
        List.of(draNode("l4-node")));
    assertThat(plan.onExisting()).containsOnlyKeys(first.key());
    assertThat(plan.newClaims()).isEmpty();
    assertThat(plan.errors()).containsExactly(Map.entry(second.key(),
        "Failed to schedule pod, allocating dynamic resources, no instance type can satisfy the allocation"));
  }

  @Test
  void aNodeNotInitialisedOffersItsInstanceTypesDevicesWhichOnAwsAreNone() {
    // The extension would size the in-flight g6.xlarge by the driver's L4; Karpenter's allocator does not.
    Pod p = pod("p", template("l4"));
    ProvisioningPlan karpenter = solve(DraRequests.KARPENTER, L4_TEMPLATE, List.of(p), List.of(inFlight("g6.xlarge")));
    assertThat(karpenter.onExisting()).isEmpty();
    assertThat(karpenter.errors()).containsKey(p.key());
    ProvisioningPlan extension = solve(DraRequests.ALLOCATE, L4_TEMPLATE, List.of(p), List.of(inFlight("g6.xlarge")));
    assertThat(extension.onExisting()).containsKey(p.key());
  }

  @Test
  void aMissingDeviceClassIsReportedInTheAllocatorsWords() {
    Pod p = pod("p", template("x"));
    List<DraObject> objects = List.of(new ResourceClaimTemplate("default", "x", new ResourceClaimSpec(List.of(
        new DeviceRequest("gpu", "no-such-class", List.of(), DeviceRequest.AllocationMode.EXACT_COUNT, 1)))));
    ProvisioningPlan plan = solve(DraRequests.KARPENTER, objects, List.of(p), List.of(draNode("l4-node")));
    assertThat(plan.errors()).containsExactly(Map.entry(p.key(), "Failed to schedule pod, allocating dynamic "
        + "resources, validating claim \"p-gpu\": claim \"p-gpu\" request \"gpu\": DeviceClass \"no-such-class\" not "
        + "found: deviceclasses.resource.k8s.io \"no-such-class\" not found"));
  }
}
