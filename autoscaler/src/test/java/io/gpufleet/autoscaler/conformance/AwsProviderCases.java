package io.gpufleet.autoscaler.conformance;

import static io.gpufleet.autoscaler.conformance.K.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.provisioning.ProvisioningPlan;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.RequirementOperator;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * Cases from aws/karpenter-provider-aws's {@code pkg/providers/instancetype/suite_test.go}: the
 * catalogue's resources as the AWS provider computes them and GPU instance selection.
 */
final class AwsProviderCases {
  private AwsProviderCases() {}

  static final String FILE = "aws:pkg/providers/instancetype/suite_test.go";
  static final String AREA = "instance types (AWS)";

  static List<UpstreamCase> all() {
    List<UpstreamCase> c = new ArrayList<>();
    NodePool gpu = bare("gpu", req(FAMILY, RequirementOperator.IN, "g4dn", "g5", "g6", "g6e", "p4d", "p5"));
    c.add(UpstreamCase.of(AREA, FILE, "should launch instances for nvidia.com/gpu resource requests", () -> {
      // Upstream: 5+2 GPUs pack on one 8-GPU p5.48xlarge, the next 5 need a second one; here the cheapest
      // 8-GPU type of these families.
      Pod a = pod("a", "nvidia.com/gpu", "5");
      Pod b = pod("b", "nvidia.com/gpu", "2");
      Pod d = pod("d", "nvidia.com/gpu", "5");
      ProvisioningPlan plan = provision(List.of(gpu), List.of(a, b, d));
      var names = new HashSet<>();
      for (Pod p : List.of(a, b, d)) {
        assertThat(CATALOG.require(launchedType(plan, p)).gpuCount()).isEqualTo(8);
        names.add(claimOf(plan, p));
      }
      assertThat(names).hasSize(2);
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should not launch instances w/ instance storage for ephemeral storage resource "
        + "requests when exceeding blockDeviceMapping", () -> {
      Pod p = pod("p", "ephemeral-storage", "5000Gi");
      assertThat(scheduled(provision(List.of(pool("default")), List.of(p)), p)).isFalse();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should default to EBS defaults when volumeSize is not defined in "
        + "blockDeviceMappings for AL2023 Root volume", () -> {
      // The default 20Gi root volume, less kube-reserved 1Gi and the 10 % nodefs eviction threshold.
      for (InstanceType t : CATALOG.types()) {
        assertThat(t.allocatable().getOrZero(ResourceName.EPHEMERAL_STORAGE)).as(t.name())
            .isEqualTo(Quantity.parse("17Gi"));
      }
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should de-prioritize gpu types", () -> {
      // A cpu pod in a NodePool that allows GPU types is launched on a non-GPU type.
      NodePool any = bare("any", req(FAMILY, RequirementOperator.IN, "g4dn", "g6", "m5", "c5"));
      Pod p = pod("p", "cpu", "1");
      assertThat(CATALOG.require(launchedType(provision(List.of(any), List.of(p)), p)).gpuCount()).isZero();
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should order the instance types by price and only consider the cheapest ones",
        () -> {
          Pod p = pod("p", "cpu", "1");
          var claim = claimOf(provision(List.of(pool("default")), List.of(p)), p);
          List<Double> prices = claim.instanceTypes().stream()
              .map(t -> t.cheapest(o -> true).orElseThrow().pricePerHour()).toList();
          assertThat(prices).isSorted();
        }));
    return c;
  }
}
