package io.gpufleet.model.cloud;

import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;

/**
 * Karpenter's AWS estimate of what the kubelet leaves allocatable on an instance with default
 * settings (reference §1.4 "Allocatable model", {@code A:pkg/providers/instancetype/types.go}):
 * memory is EC2's MiB less {@code VM_MEMORY_OVERHEAD_PERCENT} 7.5 %, less kube-reserved
 * {@code 11 × maxPods + 255} MiB, less the 100 MiB eviction threshold; cpu less 6 % of the first
 * core, 1 % of the second, 0.5 % of cores three and four and 0.25 % of the rest. It reproduces
 * every allocatable figure of the reference's §6 table. Ephemeral storage is the default
 * EC2NodeClass's root volume, 20Gi ({@code A:pkg/providers/amifamily/resolver.go} DefaultEBS), less
 * kube-reserved 1Gi and the 10 % nodefs eviction threshold ({@code types.go} kubeReservedResources,
 * evictionThreshold): 17Gi on every type.
 */
public final class AllocatableEstimate {
  private AllocatableEstimate() {}

  public static final double VM_MEMORY_OVERHEAD = 0.075;
  public static final long EVICTION_THRESHOLD_MIB = 100;
  /** The default EC2NodeClass root volume, which is the node's ephemeral storage. */
  public static final long ROOT_VOLUME_BYTES = 20L << 30;
  public static final long KUBE_RESERVED_EPHEMERAL_BYTES = 1L << 30;

  public static long milliCpu(int vcpu) {
    long cores = vcpu;
    long reservedMilli = 0;
    // Per-core reservation in hundredths of a percent of 1000m: 600, 100, 50, 50, then 25.
    for (long core = 1; core <= cores; core++) {
      long tenthsOfMilli = core == 1 ? 600 : core == 2 ? 100 : core <= 4 ? 50 : 25;
      reservedMilli += tenthsOfMilli;
    }
    return cores * 1000 - reservedMilli / 10;
  }

  public static long memoryMib(long memoryMib, int maxPods) {
    long afterVm = (long) Math.floor(memoryMib * (1 - VM_MEMORY_OVERHEAD));
    long kubeReserved = 11L * maxPods + 255;
    return afterVm - kubeReserved - EVICTION_THRESHOLD_MIB;
  }

  /**
   * Ephemeral storage left to pods on a root volume of {@code volumeBytes}: less kube-reserved and
   * the eviction threshold, {@code ceil(volume / 100 * 10)} bytes as upstream computes it.
   */
  public static long ephemeralStorageBytes(long volumeBytes) {
    long eviction = (long) Math.ceil(volumeBytes / 100.0 * 10);
    return volumeBytes - KUBE_RESERVED_EPHEMERAL_BYTES - eviction;
  }

  /** cpu, memory, ephemeral storage and pods allocatable for an instance of this size. */
  public static ResourceList of(int vcpu, long memoryMib, int maxPods) {
    return ResourceList.EMPTY
        .with(ResourceName.CPU, Quantity.ofMillis(milliCpu(vcpu)))
        .with(ResourceName.MEMORY, Quantity.ofMebibytes(memoryMib(memoryMib, maxPods)))
        .with(ResourceName.EPHEMERAL_STORAGE, Quantity.ofBytes(ephemeralStorageBytes(ROOT_VOLUME_BYTES)))
        .with(ResourceName.PODS, Quantity.of(maxPods));
  }
}
