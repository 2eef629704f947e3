package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.requirement.Requirements;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.engine.scheduler.ResourceVector;
import io.gpufleet.model.affinity.NodeSelector;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.PodRequests;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.TaintClasses;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.model.workload.Workload;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The existing capacity a provisioning round starts from, worked out once for one list of state
 * nodes: each node's offer ({@link NodeBases}) in the round's order (initialised nodes by name, then
 * in-flight ones by name). Consolidation runs a round per candidate over the same cluster less the
 * candidates; those rounds share this and leave the candidates out, instead of sorting and sizing
 * the fleet again each time. Leaving entries out of a sorted list keeps it sorted, so a round over
 * the nodes less some has the order a round built from those nodes alone has.
 *
 * <p>What a round asks of every node for a pod is also kept, per pod spec: the nodes whose offer
 * could take one pod of the spec at all ({@link #hosts}). Within a round a node's room only shrinks,
 * so a node that cannot take the pod before the round cannot later; scanning only these nodes
 * finds the node a scan of all would (RoundNodesTest).
 */
final class RoundNodes {
  /** One node a round may place on: its state node, its offer and its taints' number. */
  record Entry(StateNode node, ExistingNode.Base base, int taintClass) {}

  private final List<StateNode> nodes;
  private final List<Workload.DaemonSet> counted;
  private final List<Entry> entries = new ArrayList<>();
  private final Map<String, int[]> positions = new HashMap<>();
  private final TaintClasses taints = new TaintClasses();
  /** What each pod spec asks, as a list and as a vector, and its requirement variants. */
  private final Map<PodSpec, Asks> asks = new IdentityHashMap<>();
  /** The previous fleet's, for the specs asked again (pure functions of the spec). */
  private final Map<PodSpec, Asks> earlierAsks;
  private final Map<PodSpec, int[]> hosts = new IdentityHashMap<>();
  /** The same, by what they depend on: many specs (one per Job) ask alike. */
  private final Map<HostKey, int[]> hostsByKey = new HashMap<>();

  private record Asks(ResourceList list, ResourceVector vector, List<Requirements> requirements) {}

  /** What {@link #hosts} reads of a spec; equal vectors fit alike (a zero request never fails). */
  private record HostKey(ResourceVector request, List<Toleration> tolerations, Labels nodeSelector,
      Optional<NodeSelector> required) {}

  /**
   * @param nodes every node and NodeClaim Karpenter tracks; those marked for deletion are not
   *     capacity
   * @param counted the DaemonSets whose pods will land on in-flight nodes
   */
  RoundNodes(ProvisioningModel model, List<StateNode> nodes, List<Workload.DaemonSet> counted, NodeBases bases) {
    this(model, nodes, counted, bases, null);
  }

  /** As above, taking what pod specs ask from {@code previous} (a fleet of the same model, or null). */
  RoundNodes(ProvisioningModel model, List<StateNode> nodes, List<Workload.DaemonSet> counted, NodeBases bases,
      RoundNodes previous) {
    this.earlierAsks = previous == null ? Map.of() : previous.asks;
    this.nodes = List.copyOf(nodes);
    this.counted = List.copyOf(counted);
    bases.begin(counted);
    List<Entry> initialised = new ArrayList<>();
    List<Entry> inFlight = new ArrayList<>();
    for (StateNode n : nodes) {
      if (n.markedForDeletion()) {
        continue;
      }
      ExistingNode.Base b = bases.get(n, () -> ExistingNode.base(n, allocatable(model, n), counted));
      (n.isInitialized() ? initialised : inFlight).add(new Entry(n, b, taints.classOf(b.taints())));
    }
    bases.end();
    initialised.sort(Comparator.comparing(e -> e.node().name()));
    inFlight.sort(Comparator.comparing(e -> e.node().name()));
    entries.addAll(initialised);
    entries.addAll(inFlight);
    for (int i = 0; i < entries.size(); i++) {
      int at = i;
      positions.merge(entries.get(i).node().name(), new int[] {i}, (a, b) -> {
        int[] both = Arrays.copyOf(a, a.length + 1);
        both[a.length] = at;
        return both;
      });
    }
  }

  /** Whether these are the nodes and DaemonSets this was made for: the same objects, in order. */
  boolean madeFor(List<StateNode> others, List<Workload.DaemonSet> othersCounted) {
    return (othersCounted == counted || othersCounted.equals(counted)) && Provisioner.sameObjects(others, nodes);
  }

  /** Every node, those marked for deletion included, in the order given. */
  List<StateNode> nodes() {
    return nodes;
  }

  List<Workload.DaemonSet> counted() {
    return counted;
  }

  /** The nodes a round may place on, in its order. */
  List<Entry> entries() {
    return entries;
  }

  private static final int[] NONE = {};

  /** The positions among {@link #entries} of the node of this name (one, or none). */
  int[] positionsOf(String name) {
    return positions.getOrDefault(name, NONE);
  }

  /** What a pod of this spec tolerates, by the nodes' taint numbers. */
  TaintClasses.Tolerance tolerance(PodSpec spec) {
    return taints.of(spec.tolerations());
  }

  private Asks asks(PodSpec spec) {
    Asks a = asks.get(spec);
    if (a == null) {
      a = earlierAsks.get(spec);
      if (a == null) {
        ResourceList list = PodRequests.of(spec);
        a = new Asks(list, ResourceVector.of(list), PodRequirements.of(spec));
      }
      asks.put(spec, a);
    }
    return a;
  }

  /** The spec's requests ({@link PodRequests#of}). */
  ResourceList requestList(PodSpec spec) {
    return asks(spec).list();
  }

  ResourceVector request(PodSpec spec) {
    return asks(spec).vector();
  }

  List<Requirements> requirements(PodSpec spec) {
    return asks(spec).requirements();
  }

  /**
   * The positions, in order, of the nodes whose offer takes one pod of this spec, taints, node
   * selector and required affinity included: the only nodes a round can place such a pod on.
   */
  int[] hosts(PodSpec spec) {
    int[] h = hosts.get(spec);
    if (h == null) {
      ResourceVector req = request(spec);
      HostKey key = new HostKey(req, spec.tolerations(), spec.nodeSelector(), spec.nodeAffinity().required());
      h = hostsByKey.get(key);
      if (h == null) {
        TaintClasses.Tolerance tolerance = taints.of(spec.tolerations());
        int[] out = new int[entries.size()];
        int n = 0;
        for (int i = 0; i < entries.size(); i++) {
          Entry e = entries.get(i);
          ExistingNode.Base b = e.base();
          if (b.freePods() >= 1 && Fit.fits(req, 1, b.free(), b.freePods()) && tolerance.tolerates(e.taintClass())
              && ExistingNode.selects(spec, e.node().name(), b.labels())) {
            out[n++] = i;
          }
        }
        h = Arrays.copyOf(out, n);
        hostsByKey.put(key, h);
      }
      hosts.put(spec, h);
    }
    return h;
  }

  /** What a node not yet initialised will offer: its claim's instance type, sized as the model sizes it. */
  static ResourceList allocatable(ProvisioningModel model, StateNode n) {
    if (n.isInitialized() && n.node().isPresent()) {
      return n.node().get().allocatable();
    }
    if (n.claim().isEmpty()) {
      return n.node().map(Node::allocatable).orElse(ResourceList.EMPTY);
    }
    NodeClaim c = n.claim().get();
    return NodePoolTemplate.effectiveAllocatable(c.instanceType(), c.labels(), model.advertiser(), model.sizing());
  }
}
