package io.gpufleet.sim.controller;

import io.gpufleet.autoscaler.disruption.InFlightDisruption;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.PodDisruptionBudget;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.sim.state.ClusterState;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.state.PodState;
import io.gpufleet.sim.state.WorkloadState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Builds Karpenter's {@link ClusterView} from the simulator's image: a state node per NodeClaim and
 * per unmanaged node, the pods Karpenter may provision for (pending, not daemon pods, not pinned by
 * name), the DaemonSets, and each PDB with the disruptions it allows now, computed as the disruption
 * controller does (expected pods from the owners' scale, healthy ones Ready). Cached per image.
 */
final class ViewBuilder {

  private ClusterState cachedState;
  private Instant cachedNow;
  private ClusterView cached;

  ClusterView view(ClusterState s, Instant now) {
    if (s == cachedState && now.equals(cachedNow)) {
      return cached;
    }
    cached = build(s, now);
    cachedState = s;
    cachedNow = now;
    return cached;
  }

  static ClusterView build(ClusterState s, Instant now) {
    Set<String> executing = new HashSet<>();
    s.executing().forEach((k, v) -> executing.addAll(v.command().candidates()));
    List<StateNode> nodes = new ArrayList<>();
    Set<String> managedNodes = new HashSet<>();
    List<NodeClaim> claims = new ArrayList<>(s.claims().values());
    claims.sort(Comparator.comparing(NodeClaim::name));
    for (NodeClaim c : claims) {
      // Before registration is recorded the node is found by the claim it says it backs.
      Optional<NodeState> n = Optional.ofNullable(s.nodes().get(c.nodeName().orElse(c.name())))
          .filter(ns -> ns.claim().map(c.name()::equals).orElse(false));
      n.ifPresent(ns -> managedNodes.add(ns.name()));
      nodes.add(stateNode(s, c.nodeName().orElse(c.name()), Optional.of(c), n,
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
      nodes.add(stateNode(s, name, Optional.empty(), Optional.of(n), false, n.registered()));
    }
    List<PodState> pending = new ArrayList<>();
    s.pending().forEach((k, v) -> {
      PodState p = s.pods().get(k);
      if (!ApiServer.isDaemon(p.pod()) && p.pod().spec().nodeName().isEmpty()) {
        pending.add(p);
      }
    });
    pending.sort(Comparator.comparingLong(PodState::sequence));
    List<Workload.DaemonSet> daemonSets = new ArrayList<>();
    List<String> keys = new ArrayList<>(s.workloads().keys());
    keys.sort(null);
    for (String k : keys) {
      if (s.workloads().get(k).workload() instanceof Workload.DaemonSet ds) {
        daemonSets.add(ds);
      }
    }
    return new ClusterView(now, s.nodePools(), s.catalog(), s.offerings(), nodes,
        pending.stream().map(PodState::pod).toList(), daemonSets, pdbs(s));
  }

  private static StateNode stateNode(ClusterState s, String name, Optional<NodeClaim> claim, Optional<NodeState> n,
      boolean marked, Instant fallback) {
    List<Pod> pods = new ArrayList<>();
    Set<String> terminating = new HashSet<>();
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
        }
      }
    }
    return new StateNode(name, claim, n.map(NodeState::node), pods, terminating, last, marked);
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
    int matched = 0;
    int healthy = 0;
    Set<String> owners = new HashSet<>();
    for (String wk : s.workloads().keys()) {
      WorkloadState w = s.workloads().get(wk);
      if (!w.workload().meta().namespace().equals(b.meta().namespace())) {
        continue;
      }
      if (!b.selector().isEmpty() && b.selector().matches(w.workload().template().labels())) {
        owners.add(wk);
      }
    }
    for (PodState p : s.pods().values()) {
      if (p.pod().meta().namespace().equals(b.meta().namespace()) && !b.selector().isEmpty()
          && b.selector().matches(p.pod().meta().labels())) {
        if (!p.isTerminating()) {
          matched++;
        }
        if (p.isReady()) {
          healthy++;
        }
      }
    }
    int expected = matched;
    if (!owners.isEmpty()) {
      expected = 0;
      for (String o : owners) {
        expected += ApiServer.desired(s.workloads().get(o).workload());
      }
    }
    return b.disruptionsAllowed(expected, healthy);
  }

  static Set<String> executingCandidates(ClusterState s) {
    Set<String> out = new HashSet<>();
    for (InFlightDisruption d : s.executing().values()) {
      out.addAll(d.command().candidates());
    }
    return out;
  }
}
