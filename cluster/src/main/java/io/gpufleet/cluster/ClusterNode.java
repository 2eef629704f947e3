package io.gpufleet.cluster;

import io.gpufleet.engine.deviceplugin.Registration;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.node.Node;
import java.util.Objects;
import java.util.Optional;

/**
 * A node of the cluster as the commands see it: after its device plugin registered, or as it
 * reports itself. {@code registration} is empty for a node without modelled GPUs or one left to
 * NVIDIA's DRA driver; {@code inventory} is empty for a node without GPUs. {@code disagreement}
 * says where the node's report and the config selected for it differ.
 */
public record ClusterNode(Node node, Optional<Registration> registration, Optional<GpuInventory> inventory,
    String inventorySource, NamedConfigs.Selection selection, Optional<String> disagreement) {

  public ClusterNode {
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(registration, "registration");
    Objects.requireNonNull(inventory, "inventory");
    Objects.requireNonNull(disagreement, "disagreement");
  }

  public String name() {
    return node.name();
  }
}
