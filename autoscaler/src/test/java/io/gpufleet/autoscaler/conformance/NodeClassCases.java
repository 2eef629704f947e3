package io.gpufleet.autoscaler.conformance;

import static io.gpufleet.autoscaler.conformance.K.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.cloud.AllocatableEstimate;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.karpenter.EC2NodeClass;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Cases from aws/karpenter-provider-aws's {@code pkg/providers/instancetype/suite_test.go} on what an
 * EC2NodeClass's kubelet settings and block device mappings reserve (Contexts "System Reserved
 * Resources", "Kube Reserved Resources", "Eviction Thresholds"). Upstream inspects the instance
 * type's overhead; the twin keeps only allocatable, so each case reads the overhead back as
 * capacity less allocatable less the other overheads, on the catalogue's m5 types.
 */
final class NodeClassCases {
  private NodeClassCases() {}

  static final String FILE = AwsProviderCases.FILE;
  static final String AREA = AwsProviderCases.AREA;
  static final long MI = 1L << 20;
  static final long GI = 1L << 30;

  static EC2NodeClass nodeClass(ResourceList kubeReserved, ResourceList systemReserved, Optional<String> memoryAvailable) {
    return new EC2NodeClass("default", OptionalInt.empty(), OptionalInt.empty(), new AllocatableEstimate.Reservations(
        kubeReserved, systemReserved, memoryAvailable, Optional.empty(), AllocatableEstimate.ROOT_VOLUME_BYTES));
  }

  static long bytes(InstanceType t, ResourceName r) {
    return t.allocatable().getOrZero(r).value();
  }

  /** Memory after EC2's VM overhead (7.5 %), which the kubelet's reservations come out of. */
  static long memoryCapacity(InstanceType t) {
    return ((long) Math.floor(t.memoryMib() * 0.925)) * MI;
  }

  static List<UpstreamCase> all() {
    List<UpstreamCase> c = new ArrayList<>();
    InstanceType xlarge = CATALOG.require("m5.xlarge");
    InstanceType big = CATALOG.require("m5.4xlarge");
    c.add(UpstreamCase.of(AREA, FILE, "should use defaults when no kubelet is specified", () -> {
      // Upstream's type has 4 vCPUs and 58 pods: kube-reserved 80m, 893Mi (11 × 58 + 255), 1Gi.
      InstanceType t = EC2NodeClass.defaults("default").apply(xlarge);
      assertThat(t.maxPods()).isEqualTo(58);
      assertThat(t.allocatable().getOrZero(ResourceName.CPU).milliValue()).isEqualTo(4000 - 80);
      assertThat(bytes(t, ResourceName.MEMORY)).isEqualTo(memoryCapacity(t) - 893 * MI - 100 * MI);
      long root = 20 * GI;
      assertThat(bytes(t, ResourceName.EPHEMERAL_STORAGE)).isEqualTo(root - GI - (long) Math.ceil(root * 0.1));
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should override kube reserved when specified", () -> {
      InstanceType t = nodeClass(ResourceList.of("cpu", "2", "memory", "10Gi", "ephemeral-storage", "2Gi"),
          ResourceList.EMPTY, Optional.empty()).apply(big);
      assertThat(t.allocatable().getOrZero(ResourceName.CPU).milliValue()).isEqualTo(16000 - 2000);
      assertThat(bytes(t, ResourceName.MEMORY)).isEqualTo(memoryCapacity(t) - 10 * GI - 100 * MI);
      long root = 20 * GI;
      assertThat(bytes(t, ResourceName.EPHEMERAL_STORAGE)).isEqualTo(root - 2 * GI - (long) Math.ceil(root * 0.1));
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should override system reserved cpus when specified", () -> {
      InstanceType defaults = EC2NodeClass.defaults("default").apply(big);
      InstanceType t = nodeClass(ResourceList.EMPTY, ResourceList.of("cpu", "2", "memory", "20Gi", "ephemeral-storage",
          "10Gi"), Optional.empty()).apply(big);
      // System-reserved comes on top of the default kube-reserved and eviction thresholds.
      assertThat(defaults.allocatable().getOrZero(ResourceName.CPU).minus(t.allocatable().getOrZero(ResourceName.CPU)))
          .isEqualTo(Quantity.parse("2"));
      assertThat(bytes(defaults, ResourceName.MEMORY) - bytes(t, ResourceName.MEMORY)).isEqualTo(20 * GI);
      assertThat(bytes(defaults, ResourceName.EPHEMERAL_STORAGE) - bytes(t, ResourceName.EPHEMERAL_STORAGE))
          .isEqualTo(10 * GI);
    }));
    // Eviction Hard: upstream's kubelet also reserves 20Gi system and 10Gi kube memory.
    ResourceList kube = ResourceList.of("memory", "10Gi");
    ResourceList system = ResourceList.of("memory", "20Gi");
    InstanceType none = nodeClass(kube, system, Optional.of("100%")).apply(big);
    c.add(UpstreamCase.of(AREA, FILE, "should override eviction threshold when specified as a quantity", () -> {
      InstanceType t = nodeClass(kube, system, Optional.of("500Mi")).apply(big);
      assertThat(bytes(none, ResourceName.MEMORY) - bytes(t, ResourceName.MEMORY)).isEqualTo(500 * MI);
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should override eviction threshold when specified as a percentage value", () -> {
      InstanceType t = nodeClass(kube, system, Optional.of("10%")).apply(big);
      assertThat((double) (bytes(none, ResourceName.MEMORY) - bytes(t, ResourceName.MEMORY)))
          .isCloseTo(memoryCapacity(big) * 0.1, org.assertj.core.data.Offset.offset(10.0));
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should consider the eviction threshold disabled when specified as 100%", () -> {
      // No eviction threshold: everything but the reservations is allocatable.
      assertThat(bytes(none, ResourceName.MEMORY)).isEqualTo(memoryCapacity(big) - 10 * GI - 20 * GI);
    }));
    c.add(UpstreamCase.of(AREA, FILE, "should used default eviction threshold for memory when evictionHard not "
        + "specified", () -> {
      InstanceType t = nodeClass(kube, system, Optional.empty()).apply(big);
      assertThat(bytes(none, ResourceName.MEMORY) - bytes(t, ResourceName.MEMORY)).isEqualTo(100 * MI);
    }));
    return c;
  }
}
