package io.gpufleet.model.dra;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A driver's devices in one pool, local to {@code nodeName} (node-local slices are all the twin
 * models; {@code allNodes} and {@code nodeSelector} slices are refused when read), or, with
 * {@code perDeviceNodeSelection} (DRAPartitionableDevices), each device naming its own node. A slice
 * may instead carry the pool's {@code sharedCounters}, which partitionable devices of any slice of the
 * same pool consume.
 */
public record ResourceSlice(String name, String driver, String pool, Optional<String> nodeName, List<Device> devices,
    boolean perDeviceNodeSelection, List<CounterSet> sharedCounters) implements DraObject {

  public ResourceSlice {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(driver, "driver");
    Objects.requireNonNull(pool, "pool");
    nodeName = nodeName == null ? Optional.empty() : nodeName;
    devices = List.copyOf(devices);
    sharedCounters = List.copyOf(sharedCounters);
  }

  /** A node-local slice of devices. */
  public ResourceSlice(String name, String driver, String pool, Optional<String> nodeName, List<Device> devices) {
    this(name, driver, pool, nodeName, devices, false, List.of());
  }

  /** The node {@code device} of this slice is on: the slice's, or with per-device selection the device's own. */
  public Optional<String> nodeOf(Device device) {
    return perDeviceNodeSelection ? device.nodeName() : nodeName;
  }

  @Override
  public String kind() {
    return "ResourceSlice";
  }
}
