package io.gpufleet.sim.controller;

import io.gpufleet.autoscaler.Karpenter;
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
import io.gpufleet.model.workload.DisruptionBudget;
import io.gpufleet.model.workload.PodDisruptionBudget;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.sim.state.BySequence;
import io.gpufleet.sim.state.ClusterState;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.state.PodState;
import io.gpufleet.sim.state.WorkloadState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Builds Karpenter's {@link ClusterView} from the simulator's image: a state node per NodeClaim and
 * per unmanaged node, the pods Karpenter may provision for (pending, not daemon pods, not pinned by
 * name), the DaemonSets, and each PDB with the disruptions it allows now, computed as the disruption
 * controller does (expected pods from the owners' scale, healthy ones Ready). Cached per image.
 *
 * <p>Each view is the last one brought forward by the images' diffs (immutable images, so shared
 * subtrees are skipped): the state nodes by {@link ViewNodes}, the pending pods by the pods' and
 * pending keys' diffs, the PDBs' status by their owners' versions. A view costs what changed since
 * the last, not the fleet; ViewBuilderTest compares each followed view with one built from scratch.
 */
final class ViewBuilder {

  /**
   * PDB status by PDB: the PDB, the workloads map its owners were found in (or, since, one that
   * changed no owner of it), its owners, the status and the stamp of the last view it was valid in.
   */
  private final Map<String, Object[]> pdbMemo = new HashMap<>();
  /** The PDBs' keys in order, followed from one PDB map to the next; the workloads and index of the last view. */
  private final SortedKeys<String, PodDisruptionBudget> pdbKeys = new SortedKeys<>();
  private PMap<ObjectRef, WorkloadState> lastWorkloads;
  /** The pods and PDBs of the last view's index; the stamp of the last pass over the PDBs. */
  private PMap<String, PodState> lastPods;
  private PMap<String, PodDisruptionBudget> lastPdbsOf;
  private long pdbStamp;
  /** Every owner of a PDB in the last index, and whether a PDB had none (its status reads every pod). */
  private Set<ObjectRef> watched = Set.of();
  private boolean ownerless;
  private PdbIndex lastPdbs;
  private ClusterState cachedState;
  private Instant cachedNow;
  private ClusterView cached;
  /** State nodes by name with what they were built from: unchanged inputs give back the same object. */
  private final Map<String, Object[]> nodeMemo = new HashMap<>();
  /** The last view's state nodes in its order, and each by node and claim name. */
  private final ViewNodes nodes = new ViewNodes();
  /** The DaemonSets and the pods Karpenter provisions for, with the maps they were read from. */
  private PMap<ObjectRef, WorkloadState> daemonSetsOf;
  private List<Workload.DaemonSet> daemonSets;
  /** The DaemonSets of {@link #daemonSetsOf} by key, in the key's order. */
  private final TreeMap<ObjectRef, Workload.DaemonSet> daemonSetsByKey = new TreeMap<>();
  private PMap<String, PodState> pendingPodsOf;
  private PMap<String, Boolean> pendingKeysOf;
  private List<Pod> pendingPods;
  /** The pods Karpenter provisions for, oldest first (a pod's sequence is its creation order, unique). */
  private final TreeMap<Long, Pod> pendingBySequence = new TreeMap<>();


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
    cached = new ClusterView(now, s.nodePools(), s.catalog(), s.offerings(), nodes.nodes(), pendingPods(s),
        daemonSets(s), pdbsCached(s), nodes.byName().asMap(), nodes.log());
    cachedState = s;
    cachedNow = now;
    return cached;
  }

  /**
   * Each NodeClaim's state node of the last view by the claim's name, one lineage from view to view
   * ({@link io.gpufleet.autoscaler.lifecycle.NodeClaimLifecycle} follows it by its diffs).
   */
  PMap<String, StateNode> claimNodes() {
    return nodes.claimNodes();
  }

  /**
   * The state nodes of these NodeClaims that {@code view} holds, in its order: each found by where it
   * is in the list ({@link ViewNodes#position}), so a few cost a few binary searches, not a walk over
   * the fleet (issue 33 item 7: termination looked at every node on each reconcile while any claim was
   * deleting). {@code view} is to be the last view made; for another, its list is walked.
   */
  List<StateNode> inViewOrder(ClusterView view, Collection<String> claims) {
    if (view != cached) {
      return view.ofClaims(claims);
    }
    List<StateNode> out = new ArrayList<>(claims.size());
    int[] at = new int[claims.size()];
    int k = 0;
    for (String claim : claims) {
      int i = nodes.position(claim);
      if (i >= 0) {
        at[k++] = i;
      }
    }
    Arrays.sort(at, 0, k);
    for (int j = 0; j < k; j++) {
      out.add(view.nodes().get(at[j]));
    }
    return out;
  }

  /**
   * The deleting state nodes of {@code view} ({@link StateNode#isDeleting}) in its order, as {@link
   * Karpenter#deleting} walks for them: the list's own record of its deleting NodeClaims ({@link
   * ViewNodes#deleting}), each found by {@link #inViewOrder}, so a provisioning round costs the
   * deleting nodes, not a walk over the fleet (issue 33 item 7: the walk was a seventh of a
   * provisioning round on 1,300 nodes). A shortcut of the twin's, not a step of Karpenter's.
   * {@code view} is to be the last view made; for another, its list is walked.
   */
  List<StateNode> deleting(ClusterView view) {
    return view != cached ? Karpenter.deleting(view) : inViewOrder(view, nodes.deleting());
  }

  /** Every state node from the image: a NodeClaim's in the image's order, then unmanaged nodes by name. */
  private void rebuild(ClusterState s) {
    Set<String> executing = executing(s);
    List<StateNode> managed = new ArrayList<>(s.claims().size());
    Set<String> managedNodes = new HashSet<>();
    // The image's own (deterministic) order: every decision that depends on order sorts for itself.
    for (NodeClaim c : s.claims().values()) {
      // Before registration is recorded the node is found by the claim it says it backs.
      Optional<NodeState> n = Optional.ofNullable(s.nodes().get(c.nodeName().orElse(c.name())))
          .filter(ns -> ns.claim().map(c.name()::equals).orElse(false));
      n.ifPresent(ns -> managedNodes.add(ns.name()));
      managed.add(claimNode(s, c, executing));
    }
    List<String> names = new ArrayList<>();
    s.nodes().forEach((k, v) -> {
      if (!managedNodes.contains(k)) {
        names.add(k);
      }
    });
    names.sort(null);
    List<StateNode> unmanaged = new ArrayList<>(names.size());
    for (String name : names) {
      unmanaged.add(unmanagedNode(s, s.nodes().get(name)));
    }
    nodes.reset(managed, unmanaged);
  }

  /** A NodeClaim's state node: with its node once that node says it backs the claim. */
  private StateNode claimNode(ClusterState s, NodeClaim c, Set<String> executing) {
    String name = c.nodeName().orElse(c.name());
    Optional<NodeState> n = Optional.ofNullable(s.nodes().get(name))
        .filter(ns -> ns.claim().map(c.name()::equals).orElse(false));
    return memoised(nodeMemo, s, name, Optional.of(c), n, c.isDeleting() || executing.contains(c.name()),
        c.created());
  }

  private StateNode unmanagedNode(ClusterState s, NodeState n) {
    return memoised(nodeMemo, s, n.name(), Optional.empty(), Optional.of(n), false, n.registered());
  }

  /** Whether a node is a NodeClaim's: the claim it names is there and names it back (or, unregistered, goes by its name). */
  private static boolean managed(ClusterState s, NodeState n) {
    if (n.claim().isEmpty()) {
      return false;
    }
    NodeClaim c = s.claims().get(n.claim().get());
    return c != null && c.nodeName().orElse(c.name()).equals(n.name());
  }

  /**
   * Brings the last view's state nodes to image {@code s} by what changed since {@code before}: each
   * NodeClaim that changed, pairs with a node that changed or is a candidate of a disruption that
   * came or went gets its state node again, and each node that changed, or whose claim did, is
   * placed among the unmanaged or taken out of them. Nodes and claims coming and going cost what
   * they touch. False, leaving them to a rebuild, when the scheduler's image gained or lost a node
   * other than by the nodes map, or the list would be irregular ({@link ViewNodes#irregular()}).
   */
  private boolean follow(ClusterState before, ClusterState s) {
    if (before == null || nodes.irregular()) {
      return false;
    }
    Set<String> claims = new HashSet<>();
    Set<String> names = new HashSet<>();
    before.claims().diff(s.claims(), (name, was, now) -> {
      claims.add(name);
      for (NodeClaim c : new NodeClaim[] {was, now}) {
        if (c != null) {
          names.add(c.nodeName().orElse(name));
        }
      }
    });
    before.nodes().diff(s.nodes(), (name, was, now) -> {
      names.add(name);
      for (NodeState n : new NodeState[] {was, now}) {
        if (n != null) {
          n.claim().ifPresent(claims::add);
        }
      }
    });
    before.executing().diff(s.executing(), (id, was, now) -> {
      for (InFlightDisruption d : new InFlightDisruption[] {was, now}) {
        if (d != null) {
          claims.addAll(d.command().candidates());
        }
      }
    });
    // The scheduler's node changes only with the node's NodeState: the API server gives a node a new
    // NodeState whenever it binds to it, unbinds from it or changes it in the snapshot, so the nodes'
    // diff above already named it. Comparing the two snapshots node by node cost the fleet's size on
    // every view; a snapshot that grew or shrank other than with the nodes map is built from scratch.
    if (s.snapshot().size() - before.snapshot().size() != s.nodes().size() - before.nodes().size()) {
      return false;
    }
    if (claims.isEmpty() && names.isEmpty()) {
      return true;
    }
    Set<String> executing = claims.isEmpty() ? Set.of() : executing(s);
    Map<String, StateNode> claimNodes = new HashMap<>();
    List<String> sorted = new ArrayList<>(claims);
    sorted.sort(null);
    for (String name : sorted) {
      NodeClaim c = s.claims().get(name);
      if (c != null) {
        claimNodes.put(name, claimNode(s, c, executing));
      } else if (nodes.ofClaim(name) != null) {
        claimNodes.put(name, null);
      }
    }
    Map<String, StateNode> unmanaged = new HashMap<>();
    sorted = new ArrayList<>(names);
    sorted.sort(null);
    for (String name : sorted) {
      NodeState n = s.nodes().get(name);
      if (n != null && !managed(s, n)) {
        unmanaged.put(name, unmanagedNode(s, n));
      } else if (nodes.unmanaged(name) != null) {
        unmanaged.put(name, null);
      }
    }
    // Only what is another object changes the list.
    claimNodes.entrySet().removeIf(e -> e.getValue() != null && e.getValue() == nodes.ofClaim(e.getKey()));
    unmanaged.entrySet().removeIf(e -> e.getValue() != null && e.getValue() == nodes.unmanaged(e.getKey()));
    return claimNodes.isEmpty() && unmanaged.isEmpty() || nodes.apply(claimNodes, unmanaged, s.claims());
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
      // The pending pods, read from the pods map by the index's rule (isPending), not looked up per key,
      // and put in sequence order: 100,000 puts in the map's hash order each walked a cold path.
      List<PodState> first = new ArrayList<>();
      s.pods().forEach((k, p) -> {
        if (p.isPending() && provisionable(p)) {
          first.add(p);
        }
      });
      BySequence.sort(first);
      for (PodState p : first) {
        pendingBySequence.put(p.sequence(), p.pod());
      }
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

  /**
   * The DaemonSets, by key: followed from the last workloads map by its diff (shared subtrees
   * skipped), so a Job's status changing at each of its pods costs that change, not a walk over every
   * workload (issue 33 item 7); the list is made again only when a DaemonSet came, went or is another
   * object. ViewBuilderTest compares each followed list with one read from every workload.
   */
  List<Workload.DaemonSet> daemonSets(ClusterState s) {
    if (s.workloads() == daemonSetsOf) {
      return daemonSets;
    }
    boolean changed = daemonSetsOf == null;
    if (daemonSetsOf == null) {
      s.workloads().forEach((k, w) -> {
        if (w.workload() instanceof Workload.DaemonSet d) {
          daemonSetsByKey.put(k, d);
        }
      });
    } else {
      boolean[] any = {false};
      daemonSetsOf.diff(s.workloads(), (k, was, now) -> {
        if (now != null && now.workload() instanceof Workload.DaemonSet d) {
          any[0] |= daemonSetsByKey.put(k, d) != d;
        } else if (was != null && was.workload() instanceof Workload.DaemonSet) {
          daemonSetsByKey.remove(k);
          any[0] = true;
        }
      });
      changed = any[0];
    }
    if (changed) {
      daemonSets = List.copyOf(daemonSetsByKey.values());
    }
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
   * are unchanged, and the last index itself (with what it worked out per pod) while every PDB and
   * status is. Workloads changing other than in which pods they template (a scale, a Job's count)
   * keep the PDBs' owners, and the status of PDBs none of whose owners changed.
   *
   * <p>What changed is read from the images' diffs since the last view (shared subtrees skipped): the
   * workloads, their pod sets and the pods whose pod, readiness or termination changed (what
   * {@link #allowed} reads). A view in which no PDB's owner changed hands back the last index without
   * visiting the PDBs, so it costs what changed, not the number of PDBs; ViewBuilderTest compares each
   * followed index with {@link #pdbs} after random changes. A PDB whose owners' pods changed has its
   * Ready count moved by those pods' changes ({@link #podChanges}), not counted over every pod of its
   * owners again (issue 33 item 7: on the week shape that count was most of a view's PDB work).
   */
  private PdbIndex pdbsCached(ClusterState s) {
    if (s.pdbs().isEmpty()) {
      return PdbIndex.NONE;
    }
    PMap<ObjectRef, WorkloadState> workloads = s.workloads();
    Set<ObjectRef> changed = null; // null: unknown (the first view)
    Set<ObjectRef> dirty = null; // the workloads whose status inputs changed; null: unknown
    // The workloads, before and after, that came, went or changed their namespace or pods' labels:
    // a PDB that selects none of them has the owners it had.
    List<Workload> relabeled = new ArrayList<>();
    if (lastWorkloads != null) {
      Set<ObjectRef> keys = new HashSet<>();
      if (workloads != lastWorkloads) {
        lastWorkloads.diff(workloads, (k, was, now) -> {
          keys.add(k);
          if (was == null || now == null
              || !was.workload().meta().namespace().equals(now.workload().meta().namespace())
              || !was.workload().template().labels().equals(now.workload().template().labels())) {
            for (WorkloadState w : new WorkloadState[] {was, now}) {
              if (w != null) {
                relabeled.add(w.workload());
              }
            }
          }
        });
      }
      changed = keys;
      // A workload changed in itself is in changed, which the owners' check below reads.
      dirty = dirtyWorkloads(s);
    }
    if (changed != null && s.pdbs() == lastPdbsOf && !ownerless && workloads == lastWorkloads
        && !covers(watched, dirty)) {
      lastPods = s.pods();
      return lastPdbs;
    }
    List<String> ordered = pdbKeys.of(s.pdbs());
    long stamp = ++pdbStamp;
    List<DisruptionBudget> entries = new ArrayList<>(ordered.size());
    Set<ObjectRef> owning = new HashSet<>();
    boolean anyOwnerless = false;
    boolean same = lastPdbs != null && lastPdbs.entries().size() == ordered.size();
    for (String key : ordered) {
      PodDisruptionBudget b = s.pdbs().get(key);
      Object[] hit = pdbMemo.get(key);
      // Its owners still hold: the same PDB, and since they were found no workload it selects (before
      // or after) came, went or changed its namespace or its pods' labels.
      if (hit != null && (hit[0] != b || hit[1] != workloads
          && (hit[1] != lastWorkloads || changed == null || selectsAny(b, relabeled)))) {
        hit = null;
      }
      @SuppressWarnings("unchecked")
      List<ObjectRef> owners = hit != null ? (List<ObjectRef>) hit[2] : owners(s, b);
      owning.addAll(owners);
      anyOwnerless |= owners.isEmpty();
      int allowed;
      // Valid through the last view, with the owners it was worked out for.
      boolean kept = hit != null && !owners.isEmpty() && (long) hit[4] == stamp - 1 && dirty != null;
      if (kept && !(hit[1] != workloads && covers(owners, changed)) && !covers(owners, dirty)) {
        // none of its owners or their pods changed since
        allowed = (int) hit[3];
        hit[1] = workloads;
        hit[4] = stamp;
      } else if (kept) {
        // an owner's scale may have changed, and its Ready pods moved by the pods that changed
        int healthy = (int) hit[5];
        for (ObjectRef o : owners) {
          for (PodState[] c : podChanges.getOrDefault(o, List.of())) {
            healthy += healthy(b, c[1]) - healthy(b, c[0]);
          }
        }
        allowed = b.disruptionsAllowed(expected(s, owners), healthy);
        pdbMemo.put(key, new Object[] {b, workloads, owners, allowed, stamp, healthy});
      } else {
        int healthy = owners.isEmpty() ? 0 : healthy(s, b, owners);
        allowed = owners.isEmpty() ? allowed(s, b, owners) : b.disruptionsAllowed(expected(s, owners), healthy);
        pdbMemo.put(key, new Object[] {b, workloads, owners, allowed, stamp, healthy});
      }
      DisruptionBudget e = same ? lastPdbs.entries().get(entries.size()) : null;
      if (e == null || e.pdb() != b || e.disruptionsAllowed() != allowed) {
        same = false;
        e = new DisruptionBudget(b, allowed);
      }
      entries.add(e);
    }
    lastWorkloads = workloads;
    lastPods = s.pods();
    lastPdbsOf = s.pdbs();
    watched = owning;
    ownerless = anyOwnerless;
    if (!same) {
      lastPdbs = new PdbIndex(entries);
    }
    return lastPdbs;
  }

  /**
   * The workloads whose pods changed since the last view in what a PDB's status reads: a pod came,
   * went or changed its pod, readiness or termination (a workload's pod set changes only with a pod
   * coming or going, and a pod keeps its workload).
   */
  private Set<ObjectRef> dirtyWorkloads(ClusterState s) {
    Set<ObjectRef> dirty = new HashSet<>();
    podChanges.clear();
    if (s.pods() != lastPods) {
      lastPods.diff(s.pods(), (k, was, now) -> {
        if (was != null && now != null && was.pod() == now.pod() && was.isReady() == now.isReady()
            && was.isTerminating() == now.isTerminating()) {
          return;
        }
        for (PodState p : new PodState[] {was, now}) {
          if (p != null) {
            p.workload().ifPresent(dirty::add);
          }
        }
        // Listed under the workload whose pod set holds it (ClusterState.withPod: the one it came with).
        (was != null ? was : now).workload().ifPresent(w ->
            podChanges.computeIfAbsent(w, x -> new ArrayList<>()).add(new PodState[] {was, now}));
      });
    }
    return dirty;
  }

  /** The changes {@link #dirtyWorkloads} found, by workload: each pod's state before and after (null: none). */
  private final Map<ObjectRef, List<PodState[]>> podChanges = new HashMap<>();

  /** Whether any of a PDB's owners is among these workloads. */
  private static boolean covers(Collection<?> owners, Set<ObjectRef> workloads) {
    if (owners.size() > workloads.size()) {
      for (ObjectRef o : workloads) {
        if (owners.contains(o)) {
          return true;
        }
      }
      return false;
    }
    for (Object o : owners) {
      if (workloads.contains(o)) {
        return true;
      }
    }
    return false;
  }

  /** The workloads whose pods a PDB selects. */
  static List<ObjectRef> owners(ClusterState s, PodDisruptionBudget b) {
    List<ObjectRef> owners = new ArrayList<>();
    for (ObjectRef wk : s.workloads().keys()) {
      if (selects(b, s.workloads().get(wk).workload())) {
        owners.add(wk);
      }
    }
    return owners;
  }

  /** Whether a PDB selects a workload's pods (by their template), as {@link #owners} asks. */
  private static boolean selects(PodDisruptionBudget b, Workload w) {
    return b.selects(w.meta().namespace(), w.template().labels());
  }

  private static boolean selectsAny(PodDisruptionBudget b, List<Workload> workloads) {
    for (Workload w : workloads) {
      if (selects(b, w)) {
        return true;
      }
    }
    return false;
  }

  /** The PDBs covering one pod, with their status now: what the Eviction API consults. */
  static PdbIndex pdbsFor(ClusterState s, Pod pod) {
    List<DisruptionBudget> entries = new ArrayList<>();
    for (PodDisruptionBudget b : s.pdbs().values()) {
      if (b.selects(pod.meta().namespace(), pod.meta().labels())) {
        entries.add(new DisruptionBudget(b, allowed(s, b)));
      }
    }
    return new PdbIndex(entries);
  }

  /** Each PDB and {@code status.disruptionsAllowed}: healthy (Ready) matched pods over the desired minimum. */
  static PdbIndex pdbs(ClusterState s) {
    if (s.pdbs().isEmpty()) {
      return PdbIndex.NONE;
    }
    List<DisruptionBudget> entries = new ArrayList<>();
    List<String> keys = new ArrayList<>(s.pdbs().keys());
    keys.sort(null);
    for (String key : keys) {
      entries.add(new DisruptionBudget(s.pdbs().get(key), allowed(s, s.pdbs().get(key))));
    }
    return new PdbIndex(entries);
  }

  static int allowed(ClusterState s, PodDisruptionBudget b) {
    return allowed(s, b, owners(s, b));
  }

  /** The pods its owners expect: the sum of their desired replicas. */
  private static int expected(ClusterState s, List<ObjectRef> owners) {
    int expected = 0;
    for (ObjectRef o : owners) {
      expected += ApiServer.desired(s.workloads().get(o).workload());
    }
    return expected;
  }

  /** The owners' pods a PDB selects that are Ready, as {@link #allowed} counts them. */
  private static int healthy(ClusterState s, PodDisruptionBudget b, List<ObjectRef> owners) {
    int[] healthy = new int[1];
    for (ObjectRef o : owners) {
      PMap<String, Boolean> keys = s.podsByWorkload().get(o);
      if (keys != null) {
        keys.forEach((k, v) -> healthy[0] += healthy(b, s.pods().get(k)));
      }
    }
    return healthy[0];
  }

  /** 1 when the PDB selects the pod and it is Ready; 0 otherwise, or for no pod (null). */
  private static int healthy(PodDisruptionBudget b, PodState p) {
    return p != null && p.isReady() && selects(b, p) ? 1 : 0;
  }

  private static boolean selects(PodDisruptionBudget b, PodState p) {
    return b.selects(p.pod().meta().namespace(), p.pod().meta().labels());
  }

  /** As {@link #allowed(ClusterState, PodDisruptionBudget)}, with the PDB's {@link #owners} already found. */
  private static int allowed(ClusterState s, PodDisruptionBudget b, List<ObjectRef> owners) {
    if (!owners.isEmpty()) {
      return b.disruptionsAllowed(expected(s, owners), healthy(s, b, owners));
    }
    int[] counts = new int[2];
    s.pods().forEach((k, p) -> {
      if (selects(b, p)) {
        counts[0] += p.isTerminating() ? 0 : 1;
        counts[1] += p.isReady() ? 1 : 0;
      }
    });
    return b.disruptionsAllowed(counts[0], counts[1]);
  }
}
