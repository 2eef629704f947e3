package io.gpufleet.model.deviceplugin;

import io.gpufleet.model.wire.WireEnum;

/**
 * {@code flags.plugin.sharedDevicesAllocationPolicy}: which replicas {@code GetPreferredAllocation}
 * prefers. {@code distributed} (default) the GPUs with the fewest replicas already handed out,
 * {@code packed} the most (k8s-gpu-semantics §2.2, from {@code internal/rm/allocate.go}).
 */
public enum AllocationPolicy implements WireEnum {
  DISTRIBUTED, PACKED;

  @Override
  public String wireName() {
    return WireEnum.lowerKebab(this);
  }
}
