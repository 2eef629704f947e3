package io.gpufleet.autoscaler.state;

import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.Workload;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What Karpenter sees of the cluster at one instant: the time (passed in, never read from a clock),
 * the NodePools and instance types, offerings out of stock, every node and NodeClaim, the pods
 * waiting for capacity, the DaemonSets whose pods every new node will carry, and the PDBs.
 *
 * @param pendingPods pods kube-scheduler could not place, in the order they were created
 */
public record ClusterView(Instant now, List<NodePool> nodePools, InstanceCatalog catalog,
    OfferingAvailability offerings, List<StateNode> nodes, List<Pod> pendingPods,
    List<Workload.DaemonSet> daemonSets, PdbIndex pdbs) {

  public ClusterView {
    Objects.requireNonNull(now, "now");
    nodePools = List.copyOf(nodePools);
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(offerings, "offerings");
    nodes = List.copyOf(nodes);
    pendingPods = List.copyOf(pendingPods);
    daemonSets = List.copyOf(daemonSets);
    Objects.requireNonNull(pdbs, "pdbs");
  }

  public Optional<NodePool> nodePool(String name) {
    for (NodePool p : nodePools) {
      if (p.name().equals(name)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  public Optional<StateNode> node(String name) {
    for (StateNode n : nodes) {
      if (n.name().equals(name) || n.claim().map(c -> c.name().equals(name)).orElse(false)) {
        return Optional.of(n);
      }
    }
    return Optional.empty();
  }
}
