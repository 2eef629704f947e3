package io.gpufleet.autoscaler.conformance;

import static io.gpufleet.autoscaler.conformance.K.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings.GpuSizing;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.autoscaler.provisioning.NodeOverlays;
import io.gpufleet.autoscaler.provisioning.PlannedClaim;
import io.gpufleet.autoscaler.provisioning.Provisioner;
import io.gpufleet.autoscaler.provisioning.ProvisioningModel;
import io.gpufleet.autoscaler.provisioning.ProvisioningPlan;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.model.cloud.AllocatableEstimate;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.karpenter.EC2NodeClass;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@code instanceStorePolicy: RAID0} ({@code aws:pkg/providers/instancetype/suite_test.go}): the
 * node's ephemeral storage is its instance-store volumes' total ({@code types.go} ephemeralStorage),
 * so a pod asking for more than any root volume holds gets a type with enough local NVMe. Upstream's
 * fake types include m6idn.32xlarge (7600G); the catalogue's cheapest type whose instance store holds
 * 5000Gi after kube-reserved and the 10 % eviction threshold is g6.48xlarge (7520G, $13.35/h; the
 * others, g5.48xlarge $16.29, p4d.24xlarge $21.96, g6e.48xlarge $30.13 and the p5/p6 types, cost more).
 */
final class InstanceStoreCases {
  private InstanceStoreCases() {}

  static final String AREA = AwsProviderCases.AREA;
  static final String FILE = AwsProviderCases.FILE;

  static EC2NodeClass raid0() {
    return new EC2NodeClass("default", OptionalInt.empty(), OptionalInt.empty(), new AllocatableEstimate.Reservations(
        ResourceList.EMPTY, ResourceList.EMPTY, Optional.empty(), Optional.empty(),
        AllocatableEstimate.ROOT_VOLUME_BYTES, true));
  }

  static ProvisioningPlan provision(NodePool pool, EC2NodeClass nodeClass, Pod pod) {
    Provisioner p = new Provisioner(ProvisioningModel.of(List.of(pool), CATALOG, List.of(), NvidiaDevicePlugin.DEFAULTS,
        GpuSizing.PHYSICAL, NodeOverlays.NONE, Map.of(nodeClass.name(), nodeClass)));
    return p.solve(List.of(pod), List.of(), List.of(), OfferingAvailability.ALL, T0);
  }

  static List<UpstreamCase> all() {
    List<UpstreamCase> c = new ArrayList<>();
    c.add(UpstreamCase.of(AREA, FILE, "should launch instances w/ instance storage for ephemeral storage resource "
        + "requests when disks are mounted for ephemeral-storage", () -> {
      NodePool any = NodePool.of("default", NodeClaimTemplate.of(
          NodePoolRequirement.in(CAPACITY_TYPE, "on-demand")));
      Pod p = pod("p", "ephemeral-storage", "5000Gi");
      assertThat(scheduled(provision(any, EC2NodeClass.defaults("default"), p), p)).isFalse();
      PlannedClaim claim = claimOf(provision(any, raid0(), p), p);
      InstanceType launched = launch(claim).instanceType();
      assertThat(launched.name()).isEqualTo("g6.48xlarge");
      // Upstream checks the capacity, 7520G here; the twin keeps allocatable: that less kube-reserved
      // 1Gi and the 10 % nodefs threshold.
      long store = 7520L * 1_000_000_000L;
      assertThat(raid0().apply(CATALOG.require("g6.48xlarge")).allocatable().getOrZero(
          ResourceName.EPHEMERAL_STORAGE).value()).isEqualTo(store - (1L << 30) - (long) Math.ceil(store / 100.0 * 10));
    }));
    return c;
  }
}
