package io.gpufleet.sim.state;

import io.gpufleet.autoscaler.action.RemovalReason;
import io.gpufleet.autoscaler.disruption.DisruptionCommand;
import io.gpufleet.autoscaler.disruption.InFlightDisruption;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.collect.PMap;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.workload.PodDisruptionBudget;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An immutable image of the simulated cluster: pods, nodes, NodeClaims, workloads, PDBs,
 * NodePools, the instance catalogue and offerings, Karpenter's disruption commands, and the
 * scheduler's own image of nodes and bound pods. Each change yields a new image sharing what did not
 * change; {@code version} counts changes.
 *
 * @param podsByWorkload workload key → its pod keys (an index)
 * @param readyByWorkload workload key → how many of its pods are Ready, kept as pods change (an index;
 *     no entry for none)
 * @param pending keys of pods waiting for a node (an index)
 * @param removalReasons why each deleting NodeClaim is being deleted
 * @param proposed disruption commands waiting out their validation delay
 * @param executing disruption commands whose replacements are launching
 * @param dra the DRA objects and every ResourceClaim with its allocation and reservations
 */
public record ClusterState(
    long version,
    PMap<String, PodState> pods,
    PMap<ObjectRef, PMap<String, Boolean>> podsByWorkload,
    PMap<ObjectRef, Integer> readyByWorkload,
    PMap<String, Boolean> pending,
    PMap<String, NodeState> nodes,
    PMap<String, NodeClaim> claims,
    PMap<String, RemovalReason> removalReasons,
    PMap<ObjectRef, WorkloadState> workloads,
    PMap<String, PodDisruptionBudget> pdbs,
    List<NodePool> nodePools,
    InstanceCatalog catalog,
    OfferingAvailability offerings,
    ClusterSnapshot snapshot,
    PMap<String, DisruptionCommand> proposed,
    PMap<String, InFlightDisruption> executing,
    ClaimTable dra) {

  public ClusterState {
    nodePools = List.copyOf(nodePools);
    Objects.requireNonNull(dra, "dra");
  }

  public static ClusterState empty(InstanceCatalog catalog) {
    return new ClusterState(0, PMap.empty(), PMap.empty(), PMap.empty(), PMap.empty(), PMap.empty(), PMap.empty(), PMap.empty(),
        PMap.empty(), PMap.empty(), List.of(), catalog, OfferingAvailability.ALL, ClusterSnapshot.of(List.of()),
        PMap.empty(), PMap.empty(), ClaimTable.EMPTY);
  }

  public Optional<PodState> pod(String key) {
    return Optional.ofNullable(pods.get(key));
  }

  public Optional<NodeState> node(String name) {
    return Optional.ofNullable(nodes.get(name));
  }

  public Optional<NodeClaim> claim(String name) {
    return Optional.ofNullable(claims.get(name));
  }

  public Optional<NodePool> nodePool(String name) {
    return nodePools.stream().filter(p -> p.name().equals(name)).findFirst();
  }

  /** The pods of a workload, in creation order. */
  public List<PodState> podsOf(ObjectRef workloadKey) {
    List<PodState> out = podsOfInAnyOrder(workloadKey);
    BySequence.sort(out);
    return out;
  }

  /**
   * The pods of a workload in no particular order, in a list of the caller's: by the index's keys, a
   * lookup each, while they are few among the image's pods; else by one pass over the pods map, each
   * pod's own workload read (the index holds exactly the pods that name the workload), which for a
   * workload of 100,000 pods spares as many lookups.
   */
  public List<PodState> podsOfInAnyOrder(ObjectRef workloadKey) {
    PMap<String, Boolean> keys = podsByWorkload.get(workloadKey);
    if (keys == null) {
      return new ArrayList<>();
    }
    List<PodState> out = new ArrayList<>(keys.size());
    if (keys.size() * 4L < pods.size()) {
      keys.forEach((k, v) -> out.add(pods.get(k)));
    } else {
      pods.forEach((k, p) -> {
        if (p.workload().isPresent() && p.workload().get().equals(workloadKey)) {
          out.add(p);
        }
      });
    }
    return out;
  }

  // ---- derivations: each returns the next image ----

  ClusterState next(PMap<String, PodState> p, PMap<ObjectRef, PMap<String, Boolean>> byW, PMap<String, Boolean> pend,
      PMap<String, NodeState> n, PMap<String, NodeClaim> c, PMap<String, RemovalReason> rr,
      PMap<ObjectRef, WorkloadState> w, PMap<String, PodDisruptionBudget> b, List<NodePool> np, InstanceCatalog cat,
      OfferingAvailability off, ClusterSnapshot snap, PMap<String, DisruptionCommand> prop,
      PMap<String, InFlightDisruption> exec) {
    return new ClusterState(version + 1, p, byW, readyByWorkload, pend, n, c, rr, w, b, np, cat, off, snap, prop, exec,
        dra);
  }

  private ClusterState nextPods(PMap<String, PodState> p, PMap<ObjectRef, PMap<String, Boolean>> byW,
      PMap<ObjectRef, Integer> ready, PMap<String, Boolean> pend) {
    return new ClusterState(version + 1, p, byW, ready, pend, nodes, claims, removalReasons, workloads, pdbs, nodePools,
        catalog, offerings, snapshot, proposed, executing, dra);
  }

  /** How many pods of the workload are Ready ({@link PodState#isReady()}). */
  public int readyCount(ObjectRef workloadKey) {
    Integer n = readyByWorkload.get(workloadKey);
    return n == null ? 0 : n;
  }

  /** The ready counts with {@code delta} added to the workload's, if it has one and delta is not 0. */
  private static PMap<ObjectRef, Integer> addReady(PMap<ObjectRef, Integer> ready, Optional<ObjectRef> workload,
      int delta) {
    if (delta == 0 || workload.isEmpty()) {
      return ready;
    }
    Integer had = ready.get(workload.get());
    int n = (had == null ? 0 : had) + delta;
    return n == 0 ? ready.remove(workload.get()) : ready.put(workload.get(), n);
  }

  public ClusterState withDra(ClaimTable d) {
    return new ClusterState(version + 1, pods, podsByWorkload, readyByWorkload, pending, nodes, claims, removalReasons,
        workloads, pdbs, nodePools, catalog, offerings, snapshot, proposed, executing, d);
  }

  public ClusterState withPod(PodState s) {
    String key = s.key();
    PodState old = pods.get(key);
    PMap<ObjectRef, PMap<String, Boolean>> byW = podsByWorkload;
    if (old == null && s.workload().isPresent()) {
      PMap<String, Boolean> set = byW.get(s.workload().get());
      byW = byW.put(s.workload().get(), (set == null ? PMap.<String, Boolean>empty() : set).put(key, true));
    }
    PMap<ObjectRef, Integer> ready = readyByWorkload;
    if (old != null && old.isReady()) {
      ready = addReady(ready, old.workload(), -1);
    }
    if (s.isReady()) {
      ready = addReady(ready, s.workload(), 1);
    }
    PMap<String, Boolean> pend = s.isPending() ? pending.put(key, true) : pending.remove(key);
    return nextPods(pods.put(key, s), byW, ready, pend);
  }

  /**
   * The image with each pod of {@code created} (new, pending) added, as {@link #withPod} of each in turn
   * would make it, its version moved once per pod: the pods map and the indexes each take the batch in
   * one {@link PMap#putAll}, so a workload's 100,000 new replicas cost the trie's nodes once, not once
   * per pod. A pending pod counts for no workload's Ready pods.
   *
   * @throws IllegalArgumentException if a pod is not pending, or its key is in the image already or twice in the batch
   */
  public ClusterState withNewPods(List<PodState> created) {
    int n = created.size();
    List<String> keys = new ArrayList<>(n);
    Map<ObjectRef, List<String>> byWorkload = new LinkedHashMap<>();
    ObjectRef lastWorkload = null;
    List<String> ofLast = null;
    for (PodState s : created) {
      if (!s.isPending()) {
        throw new IllegalArgumentException("not pending: " + s.key());
      }
      keys.add(s.key());
      if (s.workload().isPresent()) {
        // A batch is one workload's: its list is looked up once, not per pod.
        ObjectRef w = s.workload().get();
        if (!w.equals(lastWorkload)) {
          lastWorkload = w;
          ofLast = byWorkload.computeIfAbsent(w, x -> new ArrayList<>());
        }
        ofLast.add(s.key());
      }
    }
    PMap<String, PodState> p = pods.putAll(keys, created);
    if (p.size() != pods.size() + n) {
      throw new IllegalArgumentException("a pod of the batch is in the image already, or twice in the batch");
    }
    // An index that held none of the keys takes the whole batch as one map, made once: the keys put
    // into an empty map make the same trie for the pending keys as for a new workload's.
    PMap<String, Boolean> batch = null;
    PMap<ObjectRef, PMap<String, Boolean>> byW = podsByWorkload;
    for (Map.Entry<ObjectRef, List<String>> e : byWorkload.entrySet()) {
      PMap<String, Boolean> set = byW.get(e.getKey());
      List<String> k = e.getValue();
      if (set == null && k.size() == n) {
        batch = PMap.<String, Boolean>empty().putAll(keys, Collections.nCopies(n, true));
        set = batch;
      } else {
        set = (set == null ? PMap.<String, Boolean>empty() : set).putAll(k, Collections.nCopies(k.size(), true));
      }
      byW = byW.put(e.getKey(), set);
    }
    PMap<String, Boolean> pend = pending.isEmpty() && batch != null ? batch
        : pending.putAll(keys, Collections.nCopies(n, true));
    return new ClusterState(version + n, p, byW, readyByWorkload, pend, nodes, claims, removalReasons, workloads,
        pdbs, nodePools, catalog, offerings, snapshot, proposed, executing, dra);
  }

  /**
   * Each pod of {@code keys} (all here) with the scheduling message at the same index of
   * {@code messages}, as {@link #withPod} of each in turn would make it: a message changes no index
   * (pending, workload, Ready), so only the pods map changes, in one {@link PMap#updateAll} pass.
   */
  public ClusterState withSchedulingMessages(List<String> keys, List<String> messages) {
    // Pods that fail alike are handed one message object: they share one Optional of it too.
    List<Optional<String>> wrapped = new ArrayList<>(messages.size());
    for (String m : messages) {
      wrapped.add(!wrapped.isEmpty() && wrapped.getLast().get() == m ? wrapped.getLast() : Optional.of(m));
    }
    return nextPods(pods.updateAll(keys, (i, p) -> p.withSchedulingMessage(wrapped.get(i))), podsByWorkload,
        readyByWorkload, pending);
  }

  public ClusterState withoutPod(String key) {
    PodState old = pods.get(key);
    if (old == null) {
      return this;
    }
    PMap<ObjectRef, PMap<String, Boolean>> byW = podsByWorkload;
    if (old.workload().isPresent()) {
      PMap<String, Boolean> set = byW.get(old.workload().get());
      if (set != null) {
        set = set.remove(key);
        byW = set.isEmpty() ? byW.remove(old.workload().get()) : byW.put(old.workload().get(), set);
      }
    }
    PMap<ObjectRef, Integer> ready = addReady(readyByWorkload, old.workload(), old.isReady() ? -1 : 0);
    return nextPods(pods.remove(key), byW, ready, pending.remove(key));
  }

  public ClusterState withNode(NodeState n) {
    return next(pods, podsByWorkload, pending, nodes.put(n.name(), n), claims, removalReasons, workloads, pdbs,
        nodePools, catalog, offerings, snapshot, proposed, executing);
  }

  public ClusterState withoutNode(String name) {
    return next(pods, podsByWorkload, pending, nodes.remove(name), claims, removalReasons, workloads, pdbs, nodePools,
        catalog, offerings, snapshot, proposed, executing);
  }

  public ClusterState withClaim(NodeClaim c) {
    return next(pods, podsByWorkload, pending, nodes, claims.put(c.name(), c), removalReasons, workloads, pdbs,
        nodePools, catalog, offerings, snapshot, proposed, executing);
  }

  public ClusterState withoutClaim(String name) {
    return next(pods, podsByWorkload, pending, nodes, claims.remove(name), removalReasons.remove(name), workloads,
        pdbs, nodePools, catalog, offerings, snapshot, proposed, executing);
  }

  public ClusterState withRemovalReason(String claim, RemovalReason r) {
    return next(pods, podsByWorkload, pending, nodes, claims, removalReasons.put(claim, r), workloads, pdbs, nodePools,
        catalog, offerings, snapshot, proposed, executing);
  }

  public ClusterState withWorkload(WorkloadState w) {
    return next(pods, podsByWorkload, pending, nodes, claims, removalReasons, workloads.put(w.key(), w), pdbs,
        nodePools, catalog, offerings, snapshot, proposed, executing);
  }

  public ClusterState withoutWorkload(ObjectRef key) {
    return next(pods, podsByWorkload, pending, nodes, claims, removalReasons, workloads.remove(key), pdbs, nodePools,
        catalog, offerings, snapshot, proposed, executing);
  }

  public ClusterState withPdb(PodDisruptionBudget b) {
    return next(pods, podsByWorkload, pending, nodes, claims, removalReasons, workloads, pdbs.put(b.meta().key(), b),
        nodePools, catalog, offerings, snapshot, proposed, executing);
  }

  public ClusterState withoutPdb(String key) {
    return next(pods, podsByWorkload, pending, nodes, claims, removalReasons, workloads, pdbs.remove(key), nodePools,
        catalog, offerings, snapshot, proposed, executing);
  }

  public ClusterState withNodePools(List<NodePool> np) {
    return next(pods, podsByWorkload, pending, nodes, claims, removalReasons, workloads, pdbs, np, catalog, offerings,
        snapshot, proposed, executing);
  }

  public ClusterState withOfferings(OfferingAvailability off) {
    return next(pods, podsByWorkload, pending, nodes, claims, removalReasons, workloads, pdbs, nodePools, catalog, off,
        snapshot, proposed, executing);
  }

  public ClusterState withSnapshot(ClusterSnapshot snap) {
    return next(pods, podsByWorkload, pending, nodes, claims, removalReasons, workloads, pdbs, nodePools, catalog,
        offerings, snap, proposed, executing);
  }

  public ClusterState withProposed(PMap<String, DisruptionCommand> prop) {
    return next(pods, podsByWorkload, pending, nodes, claims, removalReasons, workloads, pdbs, nodePools, catalog,
        offerings, snapshot, prop, executing);
  }

  public ClusterState withExecuting(PMap<String, InFlightDisruption> exec) {
    return next(pods, podsByWorkload, pending, nodes, claims, removalReasons, workloads, pdbs, nodePools, catalog,
        offerings, snapshot, proposed, exec);
  }
}
