package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.provisioning.NodePoolTemplate;
import io.gpufleet.autoscaler.provisioning.ProvisioningModel;
import io.gpufleet.autoscaler.provisioning.Provisioner;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodRequests;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.taint.TaintClasses;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A quick necessary condition for consolidation, checked before the full rescheduling simulation:
 * the candidates' pods cannot move unless, for each kind of pod and in every resource, they need no
 * more than the free room on the other nodes that pod could run on (taints and node affinity) plus
 * the room of the largest instance type cheaper than the candidates. When it fails the simulation
 * would fail too, so skipping it changes no decision; it only spares a busy, well-packed cluster the
 * time of proving that nothing can move.
 */
final class SlackBound {

  private final Map<String, Integer> dims;
  private final List<StateNode> nodes = new ArrayList<>();
  /** Every node of the view, for {@link #madeFor}. */
  private final List<StateNode> viewNodes;
  /**
   * Each node's scheduling taints, by number, and what pods tolerate of them: numbers of the previous
   * bound's, which keeps them, so a node the previous bound had keeps its number ({@link #classByNode}).
   */
  private final TaintClasses taints;
  private final List<Integer> taintClass = new ArrayList<>();
  private final Map<StateNode, Integer> classByNode = new IdentityHashMap<>();
  private final List<long[]> free = new ArrayList<>();
  /** The same, by state node, for the next bound to take. */
  private final Map<StateNode, long[]> freeByNode = new IdentityHashMap<>();
  private final ProvisioningModel model;
  private final Map<String, Integer> nodeIndex = new HashMap<>();
  private final double[] prices;
  private final long[][] prefixMax;
  private final Map<PodSpec, long[]> requests = new IdentityHashMap<>();
  /** The previous bound's, for the specs asked again (the same model: the same dimensions). */
  private final Map<PodSpec, long[]> earlierRequests;
  private final Map<PodSpec, boolean[]> eligible = new IdentityHashMap<>();
  private final Map<PodSpec, long[]> eligibleFree = new IdentityHashMap<>();
  /**
   * The same, for pods with no node selector and no required affinity: which nodes they may use
   * depends on their tolerations alone, so pods of one toleration list share the answers.
   */
  private final Map<TaintClasses.Tolerance, boolean[]> eligibleByTolerance = new IdentityHashMap<>();
  private final Map<TaintClasses.Tolerance, long[]> eligibleFreeByTolerance = new IdentityHashMap<>();
  private final Map<PodSpec, TaintClasses.Tolerance> tolerances = new IdentityHashMap<>();
  /** The previous bound's, for the specs asked again: answers of the same {@link #taints}. */
  private final Map<PodSpec, TaintClasses.Tolerance> earlierTolerances;

  private SlackBound(ClusterView view, ProvisioningModel model, SlackBound previous) {
    this.model = model;
    this.viewNodes = List.copyOf(view.nodes());
    this.earlierRequests = previous == null ? Map.of() : previous.requests;
    this.taints = previous == null ? new TaintClasses() : previous.taints;
    this.earlierTolerances = previous == null ? Map.of() : previous.tolerances;
    if (previous != null) { // the dimensions and the types' prices and room are the model's
      dims = previous.dims;
      prices = previous.prices;
      prefixMax = previous.prefixMax;
    } else {
      dims = new HashMap<>();
      dims.put("cpu", 0);
      dims.put("memory", 1);
      dims.put("ephemeral-storage", 2);
      dims.put("pods", 3);
      List<InstanceType> types = new ArrayList<>();
      for (NodePoolTemplate t : model.templates()) {
        types.addAll(t.instanceTypes());
      }
      // Dimensions are the instance types' resources; a resource outside them is not bounded (only weaker).
      for (InstanceType t : types) {
        register(t.allocatable());
      }
      types.sort((a, b) -> Double.compare(cheapest(a), cheapest(b)));
      prices = new double[types.size()];
      prefixMax = new long[types.size()][];
      long[] max = new long[dims.size()];
      for (int i = 0; i < types.size(); i++) {
        long[] v = vector(types.get(i).allocatable());
        for (int d = 0; d < v.length; d++) {
          max[d] = Math.max(max[d], v[d]);
        }
        prices[i] = cheapest(types.get(i));
        prefixMax[i] = max.clone();
      }
    }
    for (StateNode n : view.nodes()) {
      if (!n.markedForDeletion()) {
        nodeIndex.put(n.name(), nodes.size());
        nodes.add(n);
        Integer number = previous == null ? null : previous.classByNode.get(n);
        if (number == null) {
          number = taints.classOf(n.schedulingTaints());
        }
        taintClass.add(number);
        classByNode.put(n, number);
        // Worked out when a pod could use the node, unless the previous bound has it.
        long[] known = previous == null ? null : previous.freeByNode.get(n);
        free.add(known);
        if (known != null) {
          freeByNode.put(n, known);
        }
      }
    }
  }

  static SlackBound of(ClusterView view, ProvisioningModel model) {
    return new SlackBound(view, model, null);
  }

  /**
   * The bound of {@code view}, taking from {@code previous} (a bound of the same model, or null) the
   * free room of the nodes that are the same objects: a state node is an immutable value.
   */
  static SlackBound of(ClusterView view, ProvisioningModel model, SlackBound previous) {
    return new SlackBound(view, model, previous != null && previous.model == model ? previous : null);
  }

  /**
   * Whether this bound holds for {@code view} too: it reads only the view's nodes, immutable values,
   * so the same node objects in the same order give the same bound.
   */
  boolean madeFor(ClusterView view) {
    return Provisioner.sameObjects(viewNodes, view.nodes());
  }

  private void register(ResourceList r) {
    for (ResourceName n : r.names()) {
      dims.putIfAbsent(n.name(), dims.size());
    }
  }

  private long[] vector(ResourceList r) {
    long[] v = new long[dims.size()];
    for (var e : r.quantities().entrySet()) {
      Integer d = dims.get(e.getKey().name());
      if (d != null) {
        v[d] = e.getKey().equals(ResourceName.CPU) ? e.getValue().milliValue() : e.getValue().value();
      }
    }
    return v;
  }

  /** A pod's request per dimension, one pod slot included; worked out once per spec. */
  private long[] request(PodSpec spec) {
    return requests.computeIfAbsent(spec, s -> {
      long[] known = earlierRequests.get(s);
      if (known != null) {
        return known;
      }
      long[] v = vector(PodRequests.of(s));
      v[3] = 1;
      return v;
    });
  }

  /** Which nodes a pod of this spec could run on, by taints and node selector or affinity. */
  private boolean[] eligible(PodSpec spec) {
    if (selectsAnyNode(spec)) {
      return eligibleByTolerance.computeIfAbsent(tolerance(spec), t -> eligible(spec, t));
    }
    return eligible.computeIfAbsent(spec, s -> eligible(s, tolerance(s)));
  }

  private boolean[] eligible(PodSpec s, TaintClasses.Tolerance tolerance) {
    boolean[] ok = new boolean[nodes.size()];
    boolean any = selectsAnyNode(s); // every node's labels meet it: its taints alone decide
    for (int i = 0; i < nodes.size(); i++) {
      StateNode n = nodes.get(i);
      if (tolerance.tolerates(taintClass.get(i))) {
        if (any) {
          ok[i] = true;
          continue;
        }
        Labels labels = n.labels();
        ok[i] = labels.containsAll(s.nodeSelector()) && s.nodeAffinity().requiredMatches(n.name(), labels);
      }
    }
    return ok;
  }

  /** What a pod of this spec tolerates, asked of {@link #taints} once per spec. */
  private TaintClasses.Tolerance tolerance(PodSpec spec) {
    TaintClasses.Tolerance t = tolerances.get(spec);
    if (t == null) {
      t = earlierTolerances.get(spec);
      if (t == null) {
        t = taints.of(spec.tolerations());
      }
      tolerances.put(spec, t);
    }
    return t;
  }

  /** Whether the spec has no node selector and no required node affinity: every node's labels meet it. */
  private static boolean selectsAnyNode(PodSpec spec) {
    return spec.nodeSelector().isEmpty() && spec.nodeAffinity().required().isEmpty();
  }

  /** What is left on a node for more pods, per dimension (never negative). */
  private long[] free(int i) {
    long[] f = free.get(i);
    if (f == null) {
      StateNode n = nodes.get(i);
      f = vector(allocatable(n, model));
      for (Pod p : n.pods()) {
        long[] req = request(p.spec());
        for (int d = 0; d < f.length; d++) {
          f[d] -= req[d];
        }
      }
      for (int d = 0; d < f.length; d++) {
        f[d] = Math.max(0, f[d]);
      }
      free.set(i, f);
      freeByNode.put(n, f);
    }
    return f;
  }

  private long[] eligibleFree(PodSpec spec) {
    if (selectsAnyNode(spec)) {
      return eligibleFreeByTolerance.computeIfAbsent(tolerance(spec), t -> sumFree(eligible(spec)));
    }
    return eligibleFree.computeIfAbsent(spec, s -> sumFree(eligible(s)));
  }

  /** The free room of the nodes marked {@code ok}, summed per dimension. */
  private long[] sumFree(boolean[] ok) {
    long[] sum = new long[dims.size()];
    for (int i = 0; i < ok.length; i++) {
      if (ok[i]) {
        long[] f = free(i);
        for (int d = 0; d < sum.length; d++) {
          sum[d] += f[d];
        }
      }
    }
    return sum;
  }

  private static double cheapest(InstanceType t) {
    return t.offerings().stream().mapToDouble(Offering::pricePerHour).min().orElse(Double.MAX_VALUE);
  }

  /** The sizing-aware allocatable of a node, as provisioning would count it (never less). */
  private static ResourceList allocatable(StateNode n, ProvisioningModel model) {
    ResourceList a = n.node().map(Node::allocatable).orElse(ResourceList.EMPTY);
    if (n.claim().isPresent()) {
      var c = n.claim().get();
      a = a.max(NodePoolTemplate.effectiveAllocatable(c.instanceType(), c.labels(), model.advertiser(),
          model.sizing()));
    }
    return a;
  }

  /** False only when the candidates' pods cannot possibly be placed elsewhere plus one cheaper node. */
  boolean mayConsolidate(List<Candidate> candidates) {
    double price = 0;
    Map<PodSpec, Integer> counts = new IdentityHashMap<>();
    for (Candidate c : candidates) {
      price += c.price();
      for (Pod p : c.reschedulable()) {
        counts.merge(p.spec(), 1, Integer::sum);
      }
    }
    int cheaper = 0; // how many types are strictly cheaper than the candidates together
    int hi = prices.length;
    while (cheaper < hi) {
      int mid = (cheaper + hi) >>> 1;
      if (prices[mid] < price) {
        cheaper = mid + 1;
      } else {
        hi = mid;
      }
    }
    long[] extra = cheaper == 0 ? new long[dims.size()] : prefixMax[cheaper - 1];
    // The candidates' nodes, looked up once; the room they hold summed once per eligibility (specs of one
    // toleration list and no selector share theirs), not once per spec and candidate.
    int[] at = new int[candidates.size()];
    for (int k = 0; k < at.length; k++) {
      Integer i = nodeIndex.get(candidates.get(k).node().name());
      at[k] = i == null ? -1 : i;
    }
    boolean[] lastOk = null;
    long[] held = null;
    for (var e : counts.entrySet()) {
      long[] req = request(e.getKey());
      long[] room = eligibleFree(e.getKey());
      boolean[] ok = eligible(e.getKey());
      if (ok != lastOk) {
        held = new long[room.length];
        for (int i : at) {
          if (i >= 0 && ok[i]) {
            long[] own = free(i);
            for (int d = 0; d < held.length; d++) {
              held[d] += own[d];
            }
          }
        }
        lastOk = ok;
      }
      for (int d = 0; d < req.length; d++) {
        if (req[d] * e.getValue() > room[d] - held[d] + extra[d]) {
          return false;
        }
      }
    }
    return true;
  }
}
