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
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.RandomAccess;
import java.util.Set;

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
 * finds the node a scan of all would (RoundNodesTest). A fleet brought forward from the last one
 * ({@link #next}) moves that one's hosts and tests only its new entries.
 */
final class RoundNodes {
  /** One node a round may place on: its state node, its offer and its taints' number. */
  record Entry(StateNode node, ExistingNode.Base base, int taintClass) {}

  private final List<StateNode> nodes;
  private final List<Workload.DaemonSet> counted;
  /** The initialised nodes by name, then the in-flight ones by name. */
  private final List<Entry> entries;
  /** How many of {@link #entries} lead as initialised nodes. */
  private final int initialised;
  /** Whether no two entries of one part share a name: then the order is the names' alone. */
  private final boolean distinct;
  private final TaintClasses taints;
  /** What each pod spec asks: shared with the fleets made after this one from it. */
  private final AskMemo asks;
  private final Map<PodSpec, int[]> hosts = new IdentityHashMap<>();
  /**
   * What each spec tolerates, by {@link #taints}' numbers: shared with the fleets brought forward from
   * this one, which keep its taint numbers.
   */
  private final Map<PodSpec, TaintClasses.Tolerance> tolerances;
  /** The same, by what they depend on: many specs (one per Job) ask alike. */
  private final Map<HostKey, int[]> hostsByKey = new HashMap<>();
  /** {@link #positionsOf}'s answers: every round over this fleet asks them for the nodes it leaves out. */
  private final Map<String, int[]> positions = new HashMap<>();
  /**
   * The fleet this one was brought forward from ({@link #follow}), its hosts by key, and where each of
   * its entries now stands ({@code -1}: gone) and which entries are new: a key's hosts are then that
   * fleet's, moved, and the new entries tested, instead of every node tested again. Null otherwise.
   */
  private final Carried carried;

  private record Carried(Map<HostKey, int[]> hostsByKey, int[] moved, int[] added) {}

  /** {@code key}: what {@link #hosts} asks of nodes, a function of the spec kept with the rest. */
  private record Asks(ResourceList list, ResourceVector vector, List<Requirements> requirements, HostKey key) {}

  /**
   * What {@link #hosts} reads of a spec; equal vectors fit alike (a zero request never fails).
   * {@code hash}: the others' hash, made once (a key is looked up in every fleet its spec is asked in).
   */
  private record HostKey(ResourceVector request, List<Toleration> tolerations, Labels nodeSelector,
      Optional<NodeSelector> required, int hash) {
    static HostKey of(ResourceVector request, PodSpec spec) {
      List<Toleration> tolerations = spec.tolerations();
      Labels selector = spec.nodeSelector();
      Optional<NodeSelector> required = spec.nodeAffinity().required();
      return new HostKey(request, tolerations, selector, required, Objects.hash(request, tolerations, selector,
          required));
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

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
    this.asks = previous == null ? new AskMemo() : previous.asks.turn();
    this.carried = null;
    this.nodes = List.copyOf(nodes);
    this.counted = List.copyOf(counted);
    this.taints = new TaintClasses();
    this.tolerances = new IdentityHashMap<>();
    bases.begin(counted);
    List<Entry> initialised = new ArrayList<>();
    List<Entry> inFlight = new ArrayList<>();
    for (StateNode n : nodes) {
      if (n.markedForDeletion()) {
        continue;
      }
      ExistingNode.Base b = bases.get(n, () -> ExistingNode.base(n, allocatable(model, n), counted, this::request));
      (n.isInitialized() ? initialised : inFlight).add(new Entry(n, b, taints.classOf(b.taints())));
    }
    bases.end();
    initialised.sort(Comparator.comparing(e -> e.node().name()));
    inFlight.sort(Comparator.comparing(e -> e.node().name()));
    this.entries = new ArrayList<>(initialised.size() + inFlight.size());
    entries.addAll(initialised);
    entries.addAll(inFlight);
    this.initialised = initialised.size();
    this.distinct = distinct(initialised) && distinct(inFlight);
  }

  /**
   * A fleet of {@code nodes} made from {@code previous}'s entries by the changes between the two lists,
   * {@code left} the entries taken out.
   */
  private RoundNodes(RoundNodes previous, List<StateNode> nodes, List<Entry> entries, int initialised,
      Set<Entry> left) {
    this.asks = previous.asks.turn();
    this.carried = previous.carry(entries, left);
    this.nodes = List.copyOf(nodes);
    this.counted = previous.counted;
    this.taints = previous.taints; // numbers taint lists by their contents alone: it may serve on
    this.tolerances = previous.tolerances;
    this.entries = entries;
    this.initialised = initialised;
    this.distinct = true;
  }

  private static boolean distinct(List<Entry> sorted) {
    for (int i = 1; i < sorted.size(); i++) {
      if (sorted.get(i - 1).node().name().equals(sorted.get(i).node().name())) {
        return false;
      }
    }
    return true;
  }

  /**
   * The fleet of {@code nodes}: {@code previous}'s brought forward by the state nodes that came and
   * went between its list and this one, when few did; otherwise built afresh as the constructor
   * builds it. A round's order is the nodes' names within each part (initialised, in flight) while
   * no two of a part share a name, and an entry is a function of its (immutable) state node, the
   * counted DaemonSets and the model: so dropping the entries of the state nodes gone and placing
   * those of the new ones by binary search gives the entries a sort of the whole list gives, at the
   * cost of the changes, not of sorting and sizing the fleet each round (RoundNodesTest compares the
   * two after many random changes).
   */
  static RoundNodes next(ProvisioningModel model, List<StateNode> nodes, List<Workload.DaemonSet> counted,
      NodeBases bases, RoundNodes previous) {
    RoundNodes followed = previous == null ? null : previous.follow(model, nodes, counted);
    return followed != null ? followed : new RoundNodes(model, nodes, counted, bases, previous);
  }

  /** How far ahead a walk of the two lists looks for a state node that a run of changes moved on. */
  private static final int LOOKAHEAD = 4;

  /** This fleet brought forward to {@code now}'s nodes, or null where a build from scratch is due. */
  private RoundNodes follow(ProvisioningModel model, List<StateNode> now, List<Workload.DaemonSet> counted) {
    if (!distinct || !(counted == this.counted || counted.equals(this.counted))) {
      return null;
    }
    // Walk both lists side by side (the view changes its list in place, so most of it lines up):
    // what lines up is in both; the rest went (gone) or came. As multisets, now = before - gone + came,
    // whatever the walk paired up.
    List<StateNode> before = nodes;
    int limit = 16 + before.size() / 2;
    List<StateNode> gone = new ArrayList<>();
    List<StateNode> came = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < before.size() && j < now.size()) {
      StateNode a = before.get(i);
      StateNode b = now.get(j);
      if (a == b) {
        i++;
        j++;
        continue;
      }
      int skip = ahead(before, i, b);
      if (skip > 0) {
        gone.addAll(before.subList(i, i + skip));
        i += skip;
      } else if ((skip = ahead(now, j, a)) > 0) {
        came.addAll(now.subList(j, j + skip));
        j += skip;
      } else {
        gone.add(a);
        came.add(b);
        i++;
        j++;
      }
      if (gone.size() + came.size() > limit) {
        return null;
      }
    }
    gone.addAll(before.subList(i, before.size()));
    came.addAll(now.subList(j, now.size()));
    if (gone.size() + came.size() > limit) {
      return null;
    }
    // A state node that both went and came (moved in the list) stays.
    Map<StateNode, int[]> net = new IdentityHashMap<>();
    for (StateNode n : gone) {
      net.computeIfAbsent(n, k -> new int[1])[0]++;
    }
    for (StateNode n : came) {
      net.computeIfAbsent(n, k -> new int[1])[0]--;
    }
    List<Entry> out = new ArrayList<>(entries);
    Set<Entry> left = Collections.newSetFromMap(new IdentityHashMap<>());
    int init = initialised;
    for (StateNode n : gone) {
      int[] c = net.get(n);
      if (c[0] <= 0 || n.markedForDeletion()) {
        continue;
      }
      c[0]--;
      boolean first = n.isInitialized();
      int at = find(out, first ? 0 : init, first ? init : out.size(), n.name());
      if (at < 0 || out.get(at).node() != n) {
        return null;
      }
      left.add(out.remove(at));
      init -= first ? 1 : 0;
    }
    for (StateNode n : came) {
      int[] c = net.get(n);
      if (c[0] >= 0 || n.markedForDeletion()) {
        continue;
      }
      c[0]++;
      boolean first = n.isInitialized();
      int at = find(out, first ? 0 : init, first ? init : out.size(), n.name());
      if (at >= 0) {
        return null; // two of one name in a part: their order is the list's, which a build from scratch keeps
      }
      ExistingNode.Base b = ExistingNode.base(n, allocatable(model, n), this.counted, this::request);
      out.add(-at - 1, new Entry(n, b, taints.classOf(b.taints())));
      init += first ? 1 : 0;
    }
    return new RoundNodes(this, now, out, init, left);
  }

  /**
   * How this fleet's entries stand among {@code out}, which holds them but {@code left}, in order, and
   * new entries between them: one walk of both lists side by side. An entry is in one list at most once
   * and never both in {@code out} and {@code left}, so {@code left} is asked only where the two differ.
   */
  private Carried carry(List<Entry> out, Set<Entry> left) {
    int[] moved = new int[entries.size()];
    int[] added = new int[out.size()];
    int n = 0;
    int i = 0;
    for (int j = 0; j < out.size(); j++) {
      while (i < entries.size() && entries.get(i) != out.get(j) && left.contains(entries.get(i))) {
        moved[i++] = -1;
      }
      if (i < entries.size() && entries.get(i) == out.get(j)) {
        moved[i++] = j;
      } else {
        added[n++] = j;
      }
    }
    while (i < entries.size()) {
      moved[i++] = -1;
    }
    return new Carried(hostsByKey, moved, Arrays.copyOf(added, n));
  }

  /** How many places after {@code from} {@code n} stands in {@code list}, within the lookahead; 0 if not. */
  private static int ahead(List<StateNode> list, int from, StateNode n) {
    for (int d = 1; d <= LOOKAHEAD && from + d < list.size(); d++) {
      if (list.get(from + d) == n) {
        return d;
      }
    }
    return 0;
  }

  /**
   * Where the entry of this name is among {@code entries[lo, hi)} (sorted by name), or
   * {@code -(insertion point) - 1}; with several of the name, any of them.
   */
  private static int find(List<Entry> entries, int lo, int hi, String name) {
    int at = Collections.binarySearch(new Names(entries, lo, hi), name);
    return at >= 0 ? lo + at : at - lo;
  }

  /** The names of {@code entries[lo, hi)}, as a list to search. */
  private static final class Names extends AbstractList<String> implements RandomAccess {
    private final List<Entry> entries;
    private final int lo;
    private final int hi;

    Names(List<Entry> entries, int lo, int hi) {
      this.entries = entries;
      this.lo = lo;
      this.hi = hi;
    }

    @Override
    public String get(int i) {
      return entries.get(lo + i).node().name();
    }

    @Override
    public int size() {
      return hi - lo;
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

  /**
   * The positions, in order, among {@link #entries} of the nodes of this name (one, or none). Callers
   * read the array and do not change it.
   */
  int[] positionsOf(String name) {
    int[] at = positions.get(name);
    if (at == null) {
      at = searched(name);
      positions.put(name, at);
    }
    return at;
  }

  private int[] searched(String name) {
    int[] out = NONE;
    for (int part = 0; part < 2; part++) {
      int lo = part == 0 ? 0 : initialised;
      int hi = part == 0 ? initialised : entries.size();
      int at = find(entries, lo, hi, name);
      if (at < 0) {
        continue;
      }
      int first = at;
      while (first > lo && entries.get(first - 1).node().name().equals(name)) {
        first--;
      }
      int last = at;
      while (last + 1 < hi && entries.get(last + 1).node().name().equals(name)) {
        last++;
      }
      int[] more = Arrays.copyOf(out, out.length + last - first + 1);
      for (int k = first; k <= last; k++) {
        more[out.length + k - first] = k;
      }
      out = more;
    }
    return out;
  }

  /** What a pod of this spec tolerates, by the nodes' taint numbers. */
  TaintClasses.Tolerance tolerance(PodSpec spec) {
    TaintClasses.Tolerance t = tolerances.get(spec);
    if (t == null) {
      t = taints.of(spec.tolerations());
      tolerances.put(spec, t);
    }
    return t;
  }

  private Asks asks(PodSpec spec) {
    return asks.get(spec);
  }

  /**
   * What each pod spec asks (a pure function of the spec), kept by spec across fleets in two
   * generations: a spec asked in either is not worked out again, and once the newer has grown past a
   * limit, the next fleet begins a new one and the specs asked in neither since are let go. Consolidation
   * asks about the candidates' pods at each poll, but the provisioning rounds between polls make fleets
   * that ask only about the pending pods, so one fleet's memo alone lost most of them.
   */
  private static final class AskMemo {
    private Map<PodSpec, Asks> newer = new IdentityHashMap<>();
    private Map<PodSpec, Asks> older = Map.of();
    private int limit = 256;

    /** This memo for a new fleet: a new generation begun when the newer one is past its limit. */
    AskMemo turn() {
      if (newer.size() > limit) {
        older = newer;
        newer = new IdentityHashMap<>();
        limit = 2 * older.size() + 256;
      }
      return this;
    }

    Asks get(PodSpec spec) {
      Asks a = newer.get(spec);
      if (a == null) {
        a = older.get(spec);
        if (a == null) {
          ResourceList list = PodRequests.of(spec);
          ResourceVector vector = ResourceVector.of(list);
          a = new Asks(list, vector, PodRequirements.of(spec), HostKey.of(vector, spec));
        }
        newer.put(spec, a);
      }
      return a;
    }
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
   * selector and required affinity included: the only nodes a round can place such a pod on. Specs that
   * ask the same share one array, by which a round keeps how far pods asking that scanned it.
   */
  int[] hosts(PodSpec spec) {
    int[] h = hosts.get(spec);
    if (h == null) {
      HostKey key = asks(spec).key();
      h = hostsByKey.get(key);
      if (h == null) {
        int[] before = carried == null ? null : carried.hostsByKey().get(key);
        h = before == null ? scanned(spec, key) : moved(before, spec, key);
        hostsByKey.put(key, h);
      }
      hosts.put(spec, h);
    }
    return h;
  }

  /**
   * The hosts of {@code key} from the previous fleet's ({@code before}): the entries that stayed kept
   * their offers and taints, so each host that stayed is one still, at its new position, and only the
   * new entries are tested. The same positions a test of every entry finds.
   */
  private int[] moved(int[] before, PodSpec spec, HostKey key) {
    TaintClasses.Tolerance tolerance = tolerance(spec);
    int[] added = carried.added();
    int[] out = new int[before.length + added.length];
    int n = 0;
    int a = 0;
    for (int p : before) {
      int at = carried.moved()[p];
      if (at < 0) {
        continue;
      }
      for (; a < added.length && added[a] < at; a++) {
        n = host(spec, key, tolerance, added[a], out, n);
      }
      out[n++] = at;
    }
    for (; a < added.length; a++) {
      n = host(spec, key, tolerance, added[a], out, n);
    }
    return Arrays.copyOf(out, n);
  }

  /** The positions of the entries that take one pod of {@code spec}. */
  private int[] scanned(PodSpec spec, HostKey key) {
    TaintClasses.Tolerance tolerance = tolerance(spec);
    int[] out = new int[entries.size()];
    int n = 0;
    for (int i = 0; i < entries.size(); i++) {
      n = host(spec, key, tolerance, i, out, n);
    }
    return Arrays.copyOf(out, n);
  }

  /** Adds {@code i} to {@code out[0, n)} when its entry takes one pod of {@code spec}; the new count. */
  private int host(PodSpec spec, HostKey key, TaintClasses.Tolerance tolerance, int i, int[] out, int n) {
    Entry e = entries.get(i);
    ExistingNode.Base b = e.base();
    if (b.freePods() >= 1 && Fit.fits(key.request(), 1, b.free(), b.freePods()) && tolerance.tolerates(e.taintClass())
        && ExistingNode.selects(spec, e.node().name(), b.labels())) {
      out[n++] = i;
    }
    return n;
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
