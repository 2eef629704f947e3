package io.gpufleet.sim.controller;

import io.gpufleet.autoscaler.disruption.InFlightDisruption;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.model.collect.PMap;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.PodDisruptionBudget;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.sim.state.ClusterState;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.state.PodState;
import io.gpufleet.sim.state.WorkloadState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Builds Karpenter's {@link ClusterView} from the simulator's image: a state node per NodeClaim and
 * per unmanaged node, the pods Karpenter may provision for (pending, not daemon pods, not pinned by
 * name), the DaemonSets, and each PDB with the disruptions it allows now, computed as the disruption
 * controller does (expected pods from the owners' scale, healthy ones Ready). Cached per image.
 */
final class ViewBuilder {

  private final ApiServer api;
  /** PDB status by PDB, with the versions of the workloads it was computed from. */
  private final Map<String, Object[]> pdbMemo = new HashMap<>();
  private ClusterState cachedState;
  private Instant cachedNow;
  private ClusterView cached;
  /** State nodes by name with what they were built from: unchanged inputs give back the same object. */
  private final Map<String, Object[]> nodeMemo = new HashMap<>();
  /** The last view's state nodes in its order, each one's position, and each by node and claim name. */
  private final List<StateNode> nodes = new ArrayList<>();
  private final Map<String, Integer> positions = new HashMap<>();
  private PMap<String, StateNode> byName = PMap.empty();
  /** The DaemonSets and the pods Karpenter provisions for, with the maps they were read from. */
  private PMap<ObjectRef, WorkloadState> daemonSetsOf;
  private List<Workload.DaemonSet> daemonSets;
  private PMap<String, PodState> pendingPodsOf;
  private PMap<String, Boolean> pendingKeysOf;
  private List<Pod> pendingPods;
  /** The pods Karpenter provisions for, oldest first (a pod's sequence is its creation order, unique). */
  private final TreeMap<Long, Pod> pendingBySequence = new TreeMap<>();

  ViewBuilder(ApiServer api) {
    this.api = api;
  }

  /**
   * The view of an image. The state nodes follow the image by its changes since the last view: the
   * NodeClaims, Nodes, disruption commands and scheduler nodes that differ (shared subtrees of the
   * images are skipped), so a view costs what changed, not the fleet's size; a NodeClaim or Node
   * that came or went rebuilds the list, reusing every state node whose inputs are the same objects.
   */
  ClusterView view(ClusterState s, Instant now) {
    if (s == cachedState && now.equals(cachedNow)) {
      return cached;
    }
    if (s != cachedState && !follow(cachedState, s)) {
      rebuild(s);
    }
    cached = new ClusterView(now, s.nodePools(), s.catalog(), s.offerings(), nodes, pendingPods(s), daemonSets(s),
        pdbsCached(s), byName.asMap());
    cachedState = s;
    cachedNow = now;
    return cached;
  }

  /** Every state node from the image: a NodeClaim's in the image's order, then unmanaged nodes by name. */
  private void rebuild(ClusterState s) {
    Set<String> executing = executing(s);
    nodes.clear();
    Set<String> managedNodes = new HashSet<>();
    // The image's own (deterministic) order: every decision that depends on order sorts for itself.
    for (NodeClaim c : s.claims().values()) {
      // Before registration is recorded the node is found by the claim it says it backs.
      Optional<NodeState> n = Optional.ofNullable(s.nodes().get(c.nodeName().orElse(c.name())))
          .filter(ns -> ns.claim().map(c.name()::equals).orElse(false));
      n.ifPresent(ns -> managedNodes.add(ns.name()));
      nodes.add(memoised(nodeMemo, s, c.nodeName().orElse(c.name()), Optional.of(c), n,
          c.isDeleting() || executing.contains(c.name()), c.created()));
    }
    List<String> unmanaged = new ArrayList<>();
    s.nodes().forEach((k, v) -> {
      if (!managedNodes.contains(k)) {
        unmanaged.add(k);
      }
    });
    unmanaged.sort(null);
    for (String name : unmanaged) {
      NodeState n = s.nodes().get(name);
      nodes.add(memoised(nodeMemo, s, name, Optional.empty(), Optional.of(n), false, n.registered()));
    }
    positions.clear();
    PMap<String, StateNode> names = PMap.empty();
    for (int i = 0; i < nodes.size(); i++) {
      StateNode n = nodes.get(i);
      positions.put(n.name(), i);
      names = names.put(n.name(), n);
    }
    // A NodeClaim's own name finds its state node too, unless a node already goes by it.
    for (StateNode n : nodes) {
      if (n.claim().isPresent() && names.get(n.claim().get().name()) == null) {
        names = names.put(n.claim().get().name(), n);
      }
    }
    byName = names;
  }

  /**
   * Brings the last view's state nodes to image {@code s} by what changed since {@code before};
   * false, leaving them to a rebuild, when a NodeClaim or Node came, went or changed which one it
   * pairs with (the list's order and membership change then).
   */
  private boolean follow(ClusterState before, ClusterState s) {
    if (before == null) {
      return false;
    }
    Set<String> dirty = new HashSet<>();
    boolean[] reorder = new boolean[1];
    before.claims().diff(s.claims(), (name, was, now) -> {
      if (was == null || now == null || !was.nodeName().equals(now.nodeName())) {
        reorder[0] = true;
      } else {
        dirty.add(now.nodeName().orElse(name));
      }
    });
    before.nodes().diff(s.nodes(), (name, was, now) -> {
      if (was == null || now == null || !was.claim().equals(now.claim())) {
        reorder[0] = true;
      } else {
        dirty.add(name);
      }
    });
    if (reorder[0]) {
      return false;
    }
    before.executing().diff(s.executing(), (id, was, now) -> {
      for (InFlightDisruption d : new InFlightDisruption[] {was, now}) {
        if (d != null) {
          for (String claim : d.command().candidates()) {
            NodeClaim c = s.claims().get(claim);
            if (c != null) {
              dirty.add(c.nodeName().orElse(claim));
            }
          }
        }
      }
    });
    // The scheduler's node changes only with the node's NodeState: the API server gives a node a new
    // NodeState whenever it binds to it, unbinds from it or changes it in the snapshot, so the nodes'
    // diff above already named it. Comparing the two snapshots node by node cost the fleet's size on
    // every view.
    if (before.snapshot().size() != s.snapshot().size()) {
      return false;
    }
    if (dirty.isEmpty()) {
      return true;
    }
    Set<String> executing = executing(s);
    List<String> names = new ArrayList<>(dirty);
    names.sort(null);
    for (String name : names) {
      Integer at = positions.get(name);
      if (at == null) {
        return false;
      }
      StateNode old = nodes.get(at);
      StateNode built;
      if (old.claim().isPresent()) {
        NodeClaim c = s.claims().get(old.claim().get().name());
        Optional<NodeState> n = Optional.ofNullable(s.nodes().get(name))
            .filter(ns -> ns.claim().map(c.name()::equals).orElse(false));
        built = memoised(nodeMemo, s, name, Optional.of(c), n, c.isDeleting() || executing.contains(c.name()),
            c.created());
      } else {
        NodeState n = s.nodes().get(name);
        built = memoised(nodeMemo, s, name, Optional.empty(), Optional.of(n), false, n.registered());
      }
      if (built == old) {
        continue;
      }
      nodes.set(at, built);
      if (byName.get(name) == old) {
        byName = byName.put(name, built);
      }
      if (built.claim().isPresent() && byName.get(built.claim().get().name()) == old) {
        byName = byName.put(built.claim().get().name(), built);
      }
    }
    return true;
  }

  /** The NodeClaims that are candidates of a disruption in flight. */
  private static Set<String> executing(ClusterState s) {
    Set<String> executing = new HashSet<>();
    s.executing().forEach((k, v) -> executing.addAll(v.command().candidates()));
    return executing;
  }

  /**
   * The pods Karpenter may provision for: pending, not daemon pods, not pinned by name, not gated,
   * oldest first. A gated pod's PodScheduled reason is SchedulingGated, not Unschedulable, so
   * Karpenter's {@code FailedToSchedule} (pkg/utils/pod/scheduling.go) passes it over.
   */
  private List<Pod> pendingPods(ClusterState s) {
    if (s.pods() == pendingPodsOf && s.pending() == pendingKeysOf) {
      return pendingPods;
    }
    if (pendingPodsOf == null) {
      // The pending pods, read from the pods map by the index's rule (isPending), not looked up per key.
      s.pods().forEach((k, p) -> {
        if (p.isPending() && provisionable(p)) {
          pendingBySequence.put(p.sequence(), p.pod());
        }
      });
      pendingPods = List.copyOf(pendingBySequence.values());
    } else if (follow(pendingPodsOf, pendingKeysOf, s)) {
      pendingPods = List.copyOf(pendingBySequence.values());
    }
    pendingPodsOf = s.pods();
    pendingKeysOf = s.pending();
    return pendingPods;
  }

  /**
   * Brings {@link #pendingBySequence} from the images of pods and pending keys {@code pods} and
   * {@code pending} to image {@code s} by their diffs; true when the list of pods it gives changed (a
   * pod came, went or is another object), false when only what the list does not hold did, such as a
   * pending pod's scheduling message: then the last list serves, and 100,000 pending pods cost
   * nothing on a view.
   */
  private boolean follow(PMap<String, PodState> pods, PMap<String, Boolean> pending, ClusterState s) {
    Set<String> keys = new HashSet<>();
    pods.diff(s.pods(), (k, was, now) -> {
      // A pod's state changed but not the pod (its message, its phase): only the pending diff can move it.
      if (was == null || now == null || was.pod() != now.pod()) {
        keys.add(k);
      }
    });
    pending.diff(s.pending(), (k, was, now) -> keys.add(k));
    boolean changed = false;
    for (String k : keys) {
      PodState before = pending.containsKey(k) ? pods.get(k) : null;
      PodState after = s.pending().containsKey(k) ? s.pods().get(k) : null;
      boolean was = before != null && provisionable(before);
      boolean is = after != null && provisionable(after);
      if (was) {
        pendingBySequence.remove(before.sequence());
      }
      if (is) {
        pendingBySequence.put(after.sequence(), after.pod());
      }
      changed |= was != is || was && (before.pod() != after.pod() || before.sequence() != after.sequence());
    }
    return changed;
  }

  /** Whether Karpenter provisions for a pending pod: not a daemon pod, not pinned by name, not gated. */
  private static boolean provisionable(PodState p) {
    return !ApiServer.isDaemon(p.pod()) && p.pod().spec().nodeName().isEmpty()
        && p.pod().spec().schedulingGates().isEmpty();
  }

  /** The DaemonSets, by key. */
  List<Workload.DaemonSet> daemonSets(ClusterState s) {
    if (s.workloads() == daemonSetsOf) {
      return daemonSets;
    }
    List<ObjectRef> keys = new ArrayList<>();
    s.workloads().forEach((k, w) -> {
      if (w.workload() instanceof Workload.DaemonSet) {
        keys.add(k);
      }
    });
    keys.sort(null);
    List<Workload.DaemonSet> out = new ArrayList<>(keys.size());
    for (ObjectRef k : keys) {
      out.add((Workload.DaemonSet) s.workloads().get(k).workload());
    }
    daemonSets = List.copyOf(out);
    daemonSetsOf = s.workloads();
    return daemonSets;
  }

  /**
   * A state node, reused when its claim, node, bound pods and marking are the very objects it was
   * built from (a pod starting to terminate touches its node, so that is covered too).
   */
  private static StateNode memoised(Map<String, Object[]> memo, ClusterState s, String name,
      Optional<NodeClaim> claim, Optional<NodeState> n, boolean marked, Instant fallback) {
    Object info = n.flatMap(ns -> s.snapshot().node(ns.name())).orElse(null);
    Object[] key = {claim.orElse(null), n.orElse(null), info, marked};
    Object[] hit = memo.get(name);
    if (hit != null && hit[0] == key[0] && hit[1] == key[1] && hit[2] == key[2] && hit[3].equals(key[3])) {
      return (StateNode) hit[4];
    }
    StateNode built = stateNode(s, name, claim, n, marked, fallback);
    memo.put(name, new Object[] {key[0], key[1], key[2], key[3], built});
    if (memo.size() > 4 * (s.claims().size() + s.nodes().size()) + 64) {
      memo.clear();
    }
    return built;
  }

  private static StateNode stateNode(ClusterState s, String name, Optional<NodeClaim> claim, Optional<NodeState> n,
      boolean marked, Instant fallback) {
    List<Pod> pods = new ArrayList<>();
    Set<String> terminating = new HashSet<>();
    Map<String, Instant> starts = new HashMap<>();
    Instant last = fallback;
    if (n.isPresent()) {
      last = n.get().lastPodEvent();
      Optional<NodeInfo> info = s.snapshot().node(n.get().name());
      if (info.isPresent()) {
        for (PodInfo p : info.get().pods()) {
          pods.add(p.pod());
          PodState ps = s.pods().get(p.key());
          if (ps != null && ps.isTerminating()) {
            terminating.add(p.key());
          }
          if (ps != null) {
            ps.bound().ifPresent(t -> starts.put(p.key(), t)); // the kubelet sets status.startTime on admission
          }
        }
      }
    }
    return new StateNode(name, claim, n.map(NodeState::node), pods, terminating, last, marked, starts);
  }

  /**
   * As {@link #pdbs}, reusing a PDB's status while the PDB, the workloads it covers and their pods
   * are unchanged.
   */
  private PdbIndex pdbsCached(ClusterState s) {
    if (s.pdbs().isEmpty()) {
      return PdbIndex.NONE;
    }
    List<PdbIndex.Entry> entries = new ArrayList<>();
    List<String> keys = new ArrayList<>(s.pdbs().keys());
    keys.sort(null);
    for (String key : keys) {
      PodDisruptionBudget b = s.pdbs().get(key);
      Object[] hit = pdbMemo.get(key);
      List<ObjectRef> owners;
      if (hit != null && hit[0] == b && hit[1] == s.workloads()) {
        @SuppressWarnings("unchecked")
        List<ObjectRef> o = (List<ObjectRef>) hit[2];
        owners = o;
      } else {
        owners = owners(s, b);
        hit = null;
      }
      long[] versions = new long[owners.size()];
      for (int i = 0; i < versions.length; i++) {
        versions[i] = api.workloadVersion(owners.get(i));
      }
      int allowed;
      if (hit != null && !owners.isEmpty() && Arrays.equals((long[]) hit[3], versions)) {
        allowed = (int) hit[4];
      } else {
        allowed = allowed(s, b);
      }
      pdbMemo.put(key, new Object[] {b, s.workloads(), owners, versions, allowed});
      entries.add(new PdbIndex.Entry(b, allowed));
    }
    return new PdbIndex(entries);
  }

  /** The workloads whose pods a PDB selects. */
  static List<ObjectRef> owners(ClusterState s, PodDisruptionBudget b) {
    List<ObjectRef> owners = new ArrayList<>();
    for (ObjectRef wk : s.workloads().keys()) {
      WorkloadState w = s.workloads().get(wk);
      if (w.workload().meta().namespace().equals(b.meta().namespace()) && !b.selector().isEmpty()
          && b.selector().matches(w.workload().template().labels())) {
        owners.add(wk);
      }
    }
    return owners;
  }

  /** The PDBs covering one pod, with their status now: what the Eviction API consults. */
  static PdbIndex pdbsFor(ClusterState s, Pod pod) {
    List<PdbIndex.Entry> entries = new ArrayList<>();
    for (PodDisruptionBudget b : s.pdbs().values()) {
      if (b.meta().namespace().equals(pod.meta().namespace()) && !b.selector().isEmpty()
          && b.selector().matches(pod.meta().labels())) {
        entries.add(new PdbIndex.Entry(b, allowed(s, b)));
      }
    }
    return new PdbIndex(entries);
  }

  /** Each PDB and {@code status.disruptionsAllowed}: healthy (Ready) matched pods over the desired minimum. */
  static PdbIndex pdbs(ClusterState s) {
    if (s.pdbs().isEmpty()) {
      return PdbIndex.NONE;
    }
    List<PdbIndex.Entry> entries = new ArrayList<>();
    List<String> keys = new ArrayList<>(s.pdbs().keys());
    keys.sort(null);
    for (String key : keys) {
      entries.add(new PdbIndex.Entry(s.pdbs().get(key), allowed(s, s.pdbs().get(key))));
    }
    return new PdbIndex(entries);
  }

  static int allowed(ClusterState s, PodDisruptionBudget b) {
    List<ObjectRef> owners = owners(s, b);
    int[] counts = new int[2];
    Consumer<PodState> count = p -> {
      if (p.pod().meta().namespace().equals(b.meta().namespace()) && !b.selector().isEmpty()
          && b.selector().matches(p.pod().meta().labels())) {
        counts[0] += p.isTerminating() ? 0 : 1;
        counts[1] += p.isReady() ? 1 : 0;
      }
    };
    if (owners.isEmpty()) {
      s.pods().forEach((k, p) -> count.accept(p));
      return b.disruptionsAllowed(counts[0], counts[1]);
    }
    int expected = 0;
    for (ObjectRef o : owners) {
      expected += ApiServer.desired(s.workloads().get(o).workload());
      PMap<String, Boolean> keys = s.podsByWorkload().get(o);
      if (keys != null) {
        keys.forEach((k, v) -> count.accept(s.pods().get(k)));
      }
    }
    return b.disruptionsAllowed(expected, counts[1]);
  }
}
