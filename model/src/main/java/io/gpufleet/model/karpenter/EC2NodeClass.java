package io.gpufleet.model.karpenter;

import io.gpufleet.model.cloud.AllocatableEstimate;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What of an EC2NodeClass ({@code karpenter.k8s.aws/v1}) changes the nodes it makes: its kubelet's
 * {@code maxPods}, {@code podsPerCore}, {@code kubeReserved}, {@code systemReserved} and
 * {@code evictionHard}, and the root volume of its {@code blockDeviceMappings}, which is the node's
 * ephemeral storage. The AMI family is taken as AL2023, EC2NodeClass's usual {@code al2023@latest}
 * alias (pods per core honoured, root device {@code /dev/xvda}), except that a Bottlerocket node
 * class's own NVIDIA device plugin settings ({@code userData}) are kept as {@code devicePlugin}:
 * its nodes advertise under that config, whatever the cluster's device-plugin ConfigMap says.
 */
public record EC2NodeClass(String name, OptionalInt maxPods, OptionalInt podsPerCore,
    AllocatableEstimate.Reservations reservations, Optional<DevicePluginConfig> devicePlugin) {

  /** AL2023's root device, which holds the kubelet's directory ({@code A:pkg/providers/amifamily/al2023.go}). */
  public static final String AL2023_ROOT_DEVICE = "/dev/xvda";

  public EC2NodeClass {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(reservations, "reservations");
    devicePlugin = devicePlugin == null ? Optional.empty() : devicePlugin;
  }

  /** A node class whose AMI runs no device plugin of its own (AL2023: the cluster's plugin serves its nodes). */
  public EC2NodeClass(String name, OptionalInt maxPods, OptionalInt podsPerCore,
      AllocatableEstimate.Reservations reservations) {
    this(name, maxPods, podsPerCore, reservations, Optional.empty());
  }

  /** A node class that changes nothing: Karpenter's defaults. */
  public static EC2NodeClass defaults(String name) {
    return new EC2NodeClass(name, OptionalInt.empty(), OptionalInt.empty(), AllocatableEstimate.Reservations.DEFAULTS);
  }

  public boolean isDefault() {
    return maxPods.isEmpty() && podsPerCore.isEmpty() && reservations.equals(AllocatableEstimate.Reservations.DEFAULTS);
  }

  /**
   * Pods a node of {@code t} holds: {@code maxPods} where given, else the type's ENI-limited count,
   * at most {@code podsPerCore} × vCPUs where that is set ({@code A:pkg/providers/instancetype/types.go} pods).
   */
  public long pods(InstanceType t) {
    long count = maxPods.isPresent() ? maxPods.getAsInt() : t.maxPods();
    if (podsPerCore.orElse(0) > 0) {
      count = Math.min(count, (long) podsPerCore.getAsInt() * t.vcpu());
    }
    return count;
  }

  /**
   * The type as nodes of this class have it: its allocatable cpu, memory and ephemeral storage moved
   * by what this class's settings change in Karpenter's estimate (so a measured catalogue figure keeps
   * its offset), and its pods.
   */
  public InstanceType apply(InstanceType t) {
    if (isDefault()) {
      return t;
    }
    int pods = (int) pods(t);
    ResourceList before = AllocatableEstimate.of(t.vcpu(), t.memoryMib(), (int) t.maxPods());
    ResourceList after = AllocatableEstimate.of(t.vcpu(), t.memoryMib(), pods, reservations);
    ResourceList alloc = t.allocatable();
    for (ResourceName r : List.of(ResourceName.CPU, ResourceName.MEMORY, ResourceName.EPHEMERAL_STORAGE)) {
      Quantity moved = alloc.getOrZero(r).plus(after.getOrZero(r)).minus(before.getOrZero(r));
      alloc = alloc.with(r, moved.compareTo(Quantity.ZERO) < 0 ? Quantity.ZERO : moved);
    }
    alloc = alloc.with(ResourceName.PODS, Quantity.of(pods));
    return new InstanceType(t.name(), t.architecture(), t.vcpu(), t.memoryMib(), t.gpu(), alloc, t.onDemandPrice(),
        t.offerings());
  }
}
