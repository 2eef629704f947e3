package io.gpufleet.autoscaler.state;

import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.Workload;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What Karpenter sees of the cluster at one instant: the time (passed in, never read from a clock),
 * the NodePools and instance types, offerings out of stock, every node and NodeClaim, the pods
 * waiting for capacity, the DaemonSets whose pods every new node will carry, and the PDBs.
 *
 * @param pendingPods pods kube-scheduler could not place, in the order they were created
 * @param nodeLog how {@code nodes} came from the lists of earlier views ({@link NodeLog}); a chain of
 *     its own when it follows none
 */
public record ClusterView(Instant now, List<NodePool> nodePools, InstanceCatalog catalog,
    OfferingAvailability offerings, List<StateNode> nodes, List<Pod> pendingPods,
    List<Workload.DaemonSet> daemonSets, PdbIndex pdbs, Map<String, StateNode> byName, NodeLog nodeLog) {

  public ClusterView(Instant now, List<NodePool> nodePools, InstanceCatalog catalog, OfferingAvailability offerings,
      List<StateNode> nodes, List<Pod> pendingPods, List<Workload.DaemonSet> daemonSets, PdbIndex pdbs) {
    this(now, nodePools, catalog, offerings, nodes, pendingPods, daemonSets, pdbs, index(nodes), NodeLog.start());
  }

  /** Each state node by its name and, when it differs, by its NodeClaim's name. */
  private static Map<String, StateNode> index(List<StateNode> nodes) {
    Map<String, StateNode> m = new HashMap<>();
    for (StateNode n : nodes) {
      m.put(n.name(), n);
      n.claim().ifPresent(c -> m.putIfAbsent(c.name(), n));
    }
    return Collections.unmodifiableMap(m);
  }

  public ClusterView {
    Objects.requireNonNull(now, "now");
    nodePools = List.copyOf(nodePools);
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(offerings, "offerings");
    nodes = List.copyOf(nodes);
    pendingPods = List.copyOf(pendingPods);
    daemonSets = List.copyOf(daemonSets);
    Objects.requireNonNull(pdbs, "pdbs");
    Objects.requireNonNull(byName, "byName");
    Objects.requireNonNull(nodeLog, "nodeLog");
  }

  public Optional<NodePool> nodePool(String name) {
    // By index: asked per node per reconcile and poll, where an iterator per call showed in profiles.
    for (int i = 0; i < nodePools.size(); i++) {
      NodePool p = nodePools.get(i);
      if (p.name().equals(name)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /** The state nodes of these NodeClaims, in the view's order: a walk over the nodes. */
  public List<StateNode> ofClaims(Collection<String> claims) {
    List<StateNode> out = new ArrayList<>();
    for (StateNode n : nodes) {
      if (n.claim().isPresent() && claims.contains(n.claim().get().name())) {
        out.add(n);
      }
    }
    return out;
  }

  /** The state node of a node or NodeClaim name. */
  public Optional<StateNode> node(String name) {
    return Optional.ofNullable(byName.get(name));
  }
}
