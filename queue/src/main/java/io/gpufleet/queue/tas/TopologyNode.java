package io.gpufleet.queue.tas;

import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.ResourceName;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A node as Kueue's TAS cache sees it ({@code pkg/cache/scheduler/tas_nodes_cache.go},
 * {@code tas_non_tas_pod_cache.go}): the node, whether its Ready condition is true, and the
 * requests of the pods bound to it that TAS did not place (DaemonSets, other Jobs), in Kueue's
 * units with one {@code pods} per pod.
 */
public record TopologyNode(Node node, boolean ready, SortedMap<ResourceName, Long> nonTasUsage) {

  public TopologyNode {
    nonTasUsage = new TreeMap<>(nonTasUsage);
  }

  public static TopologyNode ready(Node node) {
    return new TopologyNode(node, true, new TreeMap<>());
  }
}
