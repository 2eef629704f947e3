package io.gpufleet.engine.deviceplugin;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A node after its device plugin and GFD have run: capacity, allocatable and labels updated, the
 * device state the kubelet starts from, and what the plugin (and the MIG manager before it) would
 * log. {@code devices} is empty where gpufleet cannot model the cards one by one: no NVIDIA GPUs,
 * or a card the GPU catalogue does not know.
 */
public record Registration(Node node, Advertisement advertisement, Optional<NodeDevices> devices,
    List<String> warnings) {

  public Registration {
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(advertisement, "advertisement");
    Objects.requireNonNull(devices, "devices");
    warnings = List.copyOf(warnings);
  }

  /** The extended resources the plugin registered, one entry per advertised resource. */
  public ResourceList advertised() {
    ResourceList out = ResourceList.EMPTY;
    for (var e : advertisement.counts().entrySet()) {
      out = out.with(e.getKey(), Quantity.of(e.getValue()));
    }
    return out;
  }

  /** The labels GPU Feature Discovery published on the node. */
  public Labels gfdLabels() {
    return GfdLabels.ownedIn(node.labels());
  }

  /**
   * The registration as the kubelet's device manager takes it on a node that had devices before:
   * its checkpoint keeps what running pods hold, even devices the plugin no longer advertises (and
   * all of them when no plugin came up, as after a failed config-manager).
   */
  public Registration keepingAssignmentsOf(Optional<NodeDevices> previous) {
    Optional<NodeDevices> kept = devices.isEmpty() ? previous
        : devices.map(fresh -> previous.map(fresh::withAssignmentsOf).orElse(fresh));
    return new Registration(node, advertisement, kept, warnings);
  }

  /** The same registration with more log lines after the plugin's own. */
  Registration withWarnings(List<String> more) {
    if (more.isEmpty()) {
      return this;
    }
    List<String> all = new ArrayList<>(warnings);
    all.addAll(more);
    return new Registration(node, advertisement, devices, all);
  }
}
