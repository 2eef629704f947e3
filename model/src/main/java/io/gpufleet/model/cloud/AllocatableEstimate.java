package io.gpufleet.model.cloud;

import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import java.util.Optional;
import java.util.OptionalLong;

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

  /** cpu, memory, ephemeral storage and pods allocatable for an instance of this size, with default settings. */
  public static ResourceList of(int vcpu, long memoryMib, int maxPods) {
    return of(vcpu, memoryMib, maxPods, Reservations.DEFAULTS);
  }

  /**
   * What an EC2NodeClass's kubelet settings and root volume change: {@code kubeReserved} and
   * {@code systemReserved} amounts (each resource given replaces Karpenter's default for it),
   * {@code evictionHard}'s {@code memory.available} and {@code nodefs.available} (a quantity or a
   * percentage of the capacity), and the root volume's size.
   */
  public record Reservations(ResourceList kubeReserved, ResourceList systemReserved,
      Optional<String> memoryAvailable, Optional<String> nodefsAvailable, long rootVolumeBytes,
      boolean instanceStoreRaid0) {

    public static final Reservations DEFAULTS = new Reservations(ResourceList.EMPTY, ResourceList.EMPTY,
        Optional.empty(), Optional.empty(), ROOT_VOLUME_BYTES);

    /** Ephemeral storage on the root volume (no {@code instanceStorePolicy}). */
    public Reservations(ResourceList kubeReserved, ResourceList systemReserved, Optional<String> memoryAvailable,
        Optional<String> nodefsAvailable, long rootVolumeBytes) {
      this(kubeReserved, systemReserved, memoryAvailable, nodefsAvailable, rootVolumeBytes, false);
    }

    /**
     * The reservations on an instance of {@code instanceType}: with {@code instanceStorePolicy: RAID0}
     * its ephemeral storage is the RAID-0 array of its instance-store volumes, their total size in
     * decimal GB, where it has any ({@code A:pkg/providers/instancetype/types.go} ephemeralStorage);
     * otherwise the root volume.
     */
    public Reservations on(String instanceType) {
      OptionalLong gb = instanceStoreRaid0 ? InstanceStore.totalGb(instanceType) : OptionalLong.empty();
      return gb.isEmpty() ? this : new Reservations(kubeReserved, systemReserved, memoryAvailable, nodefsAvailable,
          gb.getAsLong() * 1_000_000_000L, true);
    }
  }

  /**
   * {@code A:pkg/providers/instancetype/types.go} NewInstanceType: capacity less kube-reserved
   * ({@code kubeReservedResources}: the per-core cpu share, {@code 11 × pods + 255} MiB, 1Gi of
   * storage, each overridden by the node class), system-reserved ({@code systemReservedResources})
   * and the hard eviction thresholds ({@code evictionThreshold}: 100Mi of memory and 10 % of the root
   * volume unless {@code evictionHard} says otherwise; a percentage is of the capacity, rounded up,
   * and 100 % means none, as {@code computeEvictionSignal} and {@code mustParsePercentage} read it).
   */
  public static ResourceList of(int vcpu, long memoryMib, int pods, Reservations r) {
    long cpuMilli = vcpu * 1000L;
    long kubeCpu = r.kubeReserved().contains(ResourceName.CPU) ? r.kubeReserved().getOrZero(ResourceName.CPU)
        .milliValue() : cpuMilli - milliCpu(vcpu);
    long cpu = cpuMilli - kubeCpu - r.systemReserved().getOrZero(ResourceName.CPU).milliValue();
    long memCapacity = ((long) Math.floor(memoryMib * (1 - VM_MEMORY_OVERHEAD))) << 20;
    long kubeMem = r.kubeReserved().contains(ResourceName.MEMORY) ? r.kubeReserved().getOrZero(ResourceName.MEMORY)
        .value() : (11L * pods + 255) << 20;
    long memEviction = r.memoryAvailable().map(v -> signal(memCapacity, v)).orElse(EVICTION_THRESHOLD_MIB << 20);
    long memory = memCapacity - kubeMem - r.systemReserved().getOrZero(ResourceName.MEMORY).value() - memEviction;
    long storage = r.rootVolumeBytes();
    long kubeStorage = r.kubeReserved().contains(ResourceName.EPHEMERAL_STORAGE)
        ? r.kubeReserved().getOrZero(ResourceName.EPHEMERAL_STORAGE).value() : KUBE_RESERVED_EPHEMERAL_BYTES;
    long storageEviction = r.nodefsAvailable().map(v -> signal(storage, v))
        .orElse((long) Math.ceil(storage / 100.0 * 10));
    long ephemeral = storage - kubeStorage - r.systemReserved().getOrZero(ResourceName.EPHEMERAL_STORAGE).value()
        - storageEviction;
    return ResourceList.EMPTY
        .with(ResourceName.CPU, Quantity.ofMillis(Math.max(0, cpu)))
        .with(ResourceName.MEMORY, Quantity.ofBytes(Math.max(0, memory)))
        .with(ResourceName.EPHEMERAL_STORAGE, Quantity.ofBytes(Math.max(0, ephemeral)))
        .with(ResourceName.PODS, Quantity.of(pods));
  }

  /** An eviction signal's amount: a percentage of {@code capacity} (rounded up; 100 % is none) or a quantity. */
  static long signal(long capacity, String value) {
    if (value.endsWith("%")) {
      double p = Double.parseDouble(value.substring(0, value.length() - 1));
      return p == 100 ? 0 : (long) Math.ceil(capacity / 100.0 * p);
    }
    return Quantity.parse(value).value();
  }
}
