package io.gpufleet.engine.deviceplugin;

import io.gpufleet.model.deviceplugin.AllocationPolicy;
import io.gpufleet.model.deviceplugin.Sharing;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The device state of one node as the kubelet's device manager holds it: what the plugin
 * advertises, under which sharing and allocation policy, and which devices each pod's containers
 * hold. Immutable: allocation and release return a new image.
 */
public record NodeDevices(
    GpuInventory inventory, Sharing sharing, AllocationPolicy policy, List<Device> devices,
    SortedMap<String, List<ContainerDevices>> assignments) {

  public NodeDevices {
    Objects.requireNonNull(inventory, "inventory");
    Objects.requireNonNull(sharing, "sharing");
    Objects.requireNonNull(policy, "policy");
    devices = List.copyOf(devices);
    TreeMap<String, List<ContainerDevices>> m = new TreeMap<>();
    assignments.forEach((k, v) -> m.put(k, List.copyOf(v)));
    assignments = Collections.unmodifiableSortedMap(m);
  }

  public String nodeName() {
    return inventory.nodeName();
  }

  /** These advertised devices with the assignments of {@code previous}, as the device manager's checkpoint keeps them. */
  public NodeDevices withAssignmentsOf(NodeDevices previous) {
    return new NodeDevices(inventory, sharing, policy, devices, previous.assignments());
  }

  /** Device IDs some container holds. */
  public Set<String> allocatedIds() {
    Set<String> ids = new HashSet<>();
    for (List<ContainerDevices> pod : assignments.values()) {
      for (ContainerDevices c : pod) {
        c.devices().forEach(d -> ids.add(d.id()));
      }
    }
    return ids;
  }

  public List<Device> devicesOf(ResourceName resource) {
    return devices.stream().filter(d -> d.resource().equals(resource)).toList();
  }

  /** Advertised devices of a resource no container holds, in advertised order. */
  public List<Device> free(ResourceName resource) {
    Set<String> taken = allocatedIds();
    return devices.stream().filter(d -> d.resource().equals(resource) && !taken.contains(d.id())).toList();
  }

  /** Every container assignment, pod by pod. */
  public List<ContainerDevices> allAssignments() {
    List<ContainerDevices> out = new ArrayList<>();
    assignments.values().forEach(out::addAll);
    return out;
  }

  public NodeDevices withPod(String podKey, List<ContainerDevices> containers) {
    TreeMap<String, List<ContainerDevices>> m = new TreeMap<>(assignments);
    m.put(podKey, containers);
    return new NodeDevices(inventory, sharing, policy, devices, m);
  }

  /** The image after a pod ends: its devices are free again. */
  public NodeDevices withoutPod(String podKey) {
    if (!assignments.containsKey(podKey)) {
      return this;
    }
    TreeMap<String, List<ContainerDevices>> m = new TreeMap<>(assignments);
    m.remove(podKey);
    return new NodeDevices(inventory, sharing, policy, devices, m);
  }
}
