package io.gpufleet.engine.deviceplugin;

import io.gpufleet.model.node.Node;
import java.util.List;

/**
 * A node after its device plugin and GFD have run: capacity, allocatable and labels updated, the
 * device state the kubelet starts from, and what the plugin would log.
 */
public record Registration(Node node, Advertisement advertisement, NodeDevices devices, List<String> warnings) {
  public Registration {
    warnings = List.copyOf(warnings);
  }
}
