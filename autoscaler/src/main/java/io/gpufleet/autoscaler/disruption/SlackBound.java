package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.provisioning.NodePoolTemplate;
import io.gpufleet.autoscaler.provisioning.ProvisioningModel;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.NodeLog;
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
import java.util.Arrays;
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
 *
 * <p>One bound follows the views of one model ({@link #bring}), a shortcut of the twin's, not a step of
 * Karpenter's: the free room each kind of pod may use is a sum over the nodes, so it is kept from view to
 * view and brought along by the nodes that came and went ({@link #journal}), which the view builder's
 * splices ({@link NodeLog}) name without a pass over every node; a state node is an immutable value, so
 * its taints' number and free room are worked out once ({@link Row}). A bound built over every node at
 * each view with a node changed made most of a validation's cost on a large fleet (issue 33 item 7).
 * SlackBoundTest compares a followed bound with a fresh one and the definition over seeded views.
 */
final class SlackBound {

  private final Map<String, Integer> dims = new HashMap<>();
  private final ProvisioningModel model;
  private final double[] prices;
  private final long[][] prefixMax;
  /** The nodes' scheduling taints, by number, and what pods tolerate of them. */
  private final TaintClasses taints = new TaintClasses();

  /**
   * A state node of the followed list: the number of its taints and, once asked, its free room;
   * {@code counted} unless it is being deleted (no room then).
   */
  private static final class Row {
    final StateNode node;
    final boolean counted;
    final int taintClass;
    long[] free;

    Row(StateNode node, TaintClasses taints) {
      this.node = node;
      this.counted = !node.markedForDeletion();
      this.taintClass = counted ? taints.classOf(node.schedulingTaints()) : -1;
    }
  }

  /** A row that came into the counted rows ({@code came}) or left them. */
  private record Change(Row row, boolean came) {}

  /** The rows of the last view brought, in its order; the list of state nodes and the log entry they match. */
  private final ArrayList<Row> rows = new ArrayList<>();
  private List<StateNode> rowsOf;
  private NodeLog rowsLog;
  private ClusterView seen;
  /** The counted rows by node name, the last in the list where two share one. */
  private final Map<String, Row> byName = new HashMap<>();
  /** False once two counted rows may share a name: {@link #byName} is then made again from the rows. */
  private boolean namesUnique = true;
  /** The counted rows that came and went, in order; {@link #journalBase} is the position of the first. */
  private final List<Change> journal = new ArrayList<>();
  private long journalBase;

  /**
   * The free room of the counted rows a pod of one kind may use, summed per dimension, as of journal
   * position {@code cursor}: pods that select no node share theirs by toleration list ({@code spec} null).
   */
  private final class Room {
    final TaintClasses.Tolerance tolerance;
    final PodSpec spec;
    long[] sum;
    long cursor;

    Room(TaintClasses.Tolerance tolerance, PodSpec spec) {
      this.tolerance = tolerance;
      this.spec = spec;
    }

    /** Whether a pod of this kind could run on the row's node, by taints and node selector or affinity. */
    boolean admits(Row r) {
      if (!tolerance.tolerates(r.taintClass)) {
        return false;
      }
      if (spec == null) {
        return true;
      }
      Labels labels = r.node.labels();
      return labels.containsAll(spec.nodeSelector()) && spec.nodeAffinity().requiredMatches(r.node.name(), labels);
    }

    /** The sum at the journal's end: the changes since {@link #cursor} applied, or every row summed anew. */
    long[] sum() {
      long end = journalBase + journal.size();
      if (sum == null || cursor < journalBase) {
        sum = new long[dims.size()];
        for (Row r : rows) {
          if (r.counted && admits(r)) {
            add(sum, free(r), 1);
          }
        }
      } else {
        for (int i = (int) (cursor - journalBase); i < journal.size(); i++) {
          Change c = journal.get(i);
          if (admits(c.row())) {
            add(sum, free(c.row()), c.came() ? 1 : -1);
          }
        }
      }
      cursor = end;
      return sum;
    }
  }

  private final Map<TaintClasses.Tolerance, Room> roomsByTolerance = new IdentityHashMap<>();
  private final Map<PodSpec, Room> roomsBySpec = new IdentityHashMap<>();
  /**
   * Each spec's request, and what it tolerates (answers of the same {@link #taints}), in two generations:
   * a spec asked about is brought into the current one, and the current one becomes the earlier one (the
   * specs of neither let go) once it has grown past {@link #generationLimit}, at a view with changed nodes.
   * So the specs of the cluster's pods are worked out once while they stay, not again each time they
   * were not asked about at the view before (the same model: the same dimensions).
   */
  private Map<PodSpec, long[]> requests = new IdentityHashMap<>();
  private Map<PodSpec, long[]> earlierRequests = Map.of();
  private Map<PodSpec, TaintClasses.Tolerance> tolerances = new IdentityHashMap<>();
  private Map<PodSpec, TaintClasses.Tolerance> earlierTolerances = Map.of();
  private int generationLimit = 256;

  SlackBound(ProvisioningModel model) {
    this.model = model;
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

  /** A bound of {@code view} made afresh. */
  static SlackBound of(ClusterView view, ProvisioningModel model) {
    SlackBound b = new SlackBound(model);
    b.bring(view);
    return b;
  }

  /** {@code previous} (a bound or null) brought to {@code view} when it is of {@code model}; else a fresh bound. */
  static SlackBound of(ClusterView view, ProvisioningModel model, SlackBound previous) {
    if (previous == null || previous.model != model) {
      return of(view, model);
    }
    previous.bring(view);
    return previous;
  }

  /**
   * Brings the rows to {@code view}'s nodes: along the view builder's splices from the last view's log
   * entry when the chain reaches this one's, else by matching the two lists by identity. Each row that
   * came or went is noted in the journal, which the kept sums read when next asked.
   */
  void bring(ClusterView view) {
    if (view == seen) {
      return;
    }
    seen = view;
    List<StateNode> nodes = view.nodes();
    if (nodes != rowsOf) {
      if (requests.size() + tolerances.size() > generationLimit) {
        earlierRequests = requests;
        requests = new IdentityHashMap<>();
        earlierTolerances = tolerances;
        tolerances = new IdentityHashMap<>();
        generationLimit = 2 * (earlierRequests.size() + earlierTolerances.size()) + 256;
      }
      trim();
      if (rowsOf == null || !follow(view.nodeLog(), nodes.size())) {
        match(nodes);
      }
      if (!namesUnique) {
        byName.clear();
        namesUnique = true;
        for (Row r : rows) {
          if (r.counted && byName.put(r.node.name(), r) != null) {
            namesUnique = false;
          }
        }
      }
      rowsOf = nodes;
    }
    rowsLog = view.nodeLog();
  }

  /**
   * Applies the splices from {@link #rowsLog} to {@code to}; false, changing nothing, when {@code to}
   * is not on that chain within a bound (more splices than matching every node would cost).
   */
  private boolean follow(NodeLog to, int size) {
    List<NodeLog> path = rowsLog.pathTo(to, rows.size(), size);
    if (path == null) {
      return false;
    }
    NodeLog.apply(path, rows, x -> came(new Row(x, taints)), this::left);
    return true;
  }

  /** Matches {@code nodes} to the rows by identity: a row is kept for each node still listed. */
  private void match(List<StateNode> nodes) {
    Map<StateNode, Row> old = new IdentityHashMap<>(rows.size());
    for (Row r : rows) {
      if (old.put(r.node, r) != null) { // one state node listed twice: start over
        rows.clear();
        byName.clear();
        roomsByTolerance.clear();
        roomsBySpec.clear();
        journalBase += journal.size();
        journal.clear();
        for (StateNode n : nodes) {
          rows.add(came(new Row(n, taints)));
        }
        return;
      }
    }
    Row[] next = new Row[nodes.size()];
    for (int i = 0; i < next.length; i++) {
      next[i] = old.remove(nodes.get(i));
    }
    for (Row r : old.values()) {
      left(r);
    }
    for (int i = 0; i < next.length; i++) {
      if (next[i] == null) {
        next[i] = came(new Row(nodes.get(i), taints));
      }
    }
    rows.clear();
    rows.addAll(Arrays.asList(next));
  }

  private Row came(Row r) {
    if (r.counted) {
      journal.add(new Change(r, true));
      if (byName.put(r.node.name(), r) != null) {
        namesUnique = false;
      }
    }
    return r;
  }

  private void left(Row r) {
    if (r.counted) {
      journal.add(new Change(r, false));
      byName.remove(r.node.name(), r);
    }
  }

  /**
   * Lets the journal go once it outgrows the rows: the sums asked since the last change stay, brought
   * to its end; the others are dropped, to be summed anew when asked again.
   */
  private void trim() {
    if (journal.size() > rows.size() + 64) {
      long end = journalBase + journal.size();
      roomsByTolerance.values().removeIf(r -> r.cursor != end);
      roomsBySpec.values().removeIf(r -> r.cursor != end);
      journalBase = end;
      journal.clear();
    }
  }

  private static void add(long[] sum, long[] v, int sign) {
    for (int d = 0; d < sum.length; d++) {
      sum[d] += sign * v[d];
    }
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

  /** The room a pod of this spec may use, by taints and node selector or affinity, kept from view to view. */
  private Room room(PodSpec spec) {
    TaintClasses.Tolerance t = tolerance(spec);
    if (selectsAnyNode(spec)) { // every node's labels meet it: its taints alone decide
      return roomsByTolerance.computeIfAbsent(t, k -> new Room(k, null));
    }
    return roomsBySpec.computeIfAbsent(spec, s -> new Room(t, s));
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

  /** What is left on a row's node for more pods, per dimension (never negative); worked out once per row. */
  private long[] free(Row r) {
    long[] f = r.free;
    if (f == null) {
      f = vector(allocatable(r.node, model));
      for (Pod p : r.node.pods()) {
        long[] req = request(p.spec());
        for (int d = 0; d < f.length; d++) {
          f[d] -= req[d];
        }
      }
      for (int d = 0; d < f.length; d++) {
        f[d] = Math.max(0, f[d]);
      }
      r.free = f;
    }
    return f;
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
    Row[] at = new Row[candidates.size()];
    for (int k = 0; k < at.length; k++) {
      at[k] = byName.get(candidates.get(k).node().name());
    }
    Room last = null;
    long[] held = null;
    for (var e : counts.entrySet()) {
      long[] req = request(e.getKey());
      Room room = room(e.getKey());
      long[] free = room.sum();
      if (room != last) {
        held = new long[free.length];
        for (Row r : at) {
          if (r != null && room.admits(r)) {
            add(held, free(r), 1);
          }
        }
        last = room;
      }
      for (int d = 0; d < req.length; d++) {
        if (req[d] * e.getValue() > free[d] - held[d] + extra[d]) {
          return false;
        }
      }
    }
    return true;
  }
}
