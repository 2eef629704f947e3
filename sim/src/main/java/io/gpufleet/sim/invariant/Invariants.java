package io.gpufleet.sim.invariant;

import io.gpufleet.engine.dra.Allocation;
import io.gpufleet.engine.dra.ExtendedResourceClaims;
import io.gpufleet.engine.dra.NvidiaDraDriver;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.plugin.NodeAffinity;
import io.gpufleet.model.dra.PodResourceClaim;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Tolerations;
import io.gpufleet.sim.state.ClaimTable;
import io.gpufleet.sim.state.ClusterState;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.state.PodState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The rules every image must keep, checked after every event: no node's pods ask for more than it
 * has (unless its device plugin just shrank allocatable under running pods, which Kubernetes allows),
 * no pod runs on a node whose NoExecute taint it does not tolerate, every binding met the node's
 * taints, selector and affinity, and no voluntary eviction went past a PDB or moved a pod annotated
 * {@code karpenter.sh/do-not-disrupt}, no device plugin advertises while the pod it registered
 * from is not running on its node (a plugin registers from its own process), and ResourceClaims hold
 * no device twice and are reserved for exactly the bound pods using them. NodePool limits are
 * checked where capacity is launched.
 */
public final class Invariants {
  private Invariants() {}

  /**
   * Checks the nodes in {@code nodes} (all of them for a full check), the pods bound in this event
   * and its evictions.
   */
  public static List<InvariantViolation> check(ClusterState s, Instant now, Collection<String> nodes,
      Collection<String> bound, Collection<Eviction> evictions) {
    List<InvariantViolation> out = new ArrayList<>();
    for (String name : nodes) {
      NodeState n = s.nodes().get(name);
      var info = s.snapshot().node(name);
      if (n == null || info.isEmpty()) {
        continue;
      }
      checkNode(s, now, n, info.get(), out);
    }
    for (String key : bound) {
      PodState p = s.pods().get(key);
      if (p == null || p.node().isEmpty()) {
        continue;
      }
      var info = s.snapshot().node(p.node().get());
      if (info.isEmpty()) {
        continue;
      }
      NodeInfo without = info.get().withoutPod(key);
      var untolerated = Tolerations.firstUntoleratedBlocking(without.node().taints(), p.pod().spec().tolerations());
      if (untolerated.isPresent()) {
        out.add(new InvariantViolation(now, "taints", key, "bound to " + without.name() + " despite untolerated taint "
            + untolerated.get()));
      }
      if (!NodeAffinity.matches(p.pod().spec(), without)) {
        out.add(new InvariantViolation(now, "affinity", key, "bound to " + without.name()
            + " which its node selector or required affinity excludes"));
      }
    }
    if (!s.dra().isEmpty()) {
      checkClaims(s, now, bound, out);
    }
    for (Eviction e : evictions) {
      if (e.forced()) {
        continue;
      }
      if (e.pdb().isPresent() && e.allowedBefore() <= 0) {
        out.add(new InvariantViolation(now, "pdb", e.pod(), "evicted although " + e.pdb().get() + " allowed "
            + e.allowedBefore() + " disruptions"));
      }
      if (e.doNotDisrupt()) {
        out.add(new InvariantViolation(now, "do-not-disrupt", e.pod(), "evicted voluntarily despite "
            + "karpenter.sh/do-not-disrupt"));
      }
    }
    return out;
  }

  /**
   * ResourceClaims: no device is in two claims' allocations (a shared claim holds its devices once for
   * all its pods); a claim is allocated exactly while some pod reserves it; every pod in
   * {@code reservedFor} exists and is bound to the allocation's node; and a pod the scheduler bound in
   * this event is in the reservations of each of its claims. A pod that named its node passed no
   * scheduler: it may be bound without them, and then the kubelet does not start it.
   */
  static void checkClaims(ClusterState s, Instant now, Collection<String> bound, List<InvariantViolation> out) {
    Map<String, String> holder = new HashMap<>();
    for (ClaimTable.Claim c : s.dra().sorted()) {
      String key = c.claim().key();
      if (c.allocation().isPresent() != !c.reservedFor().isEmpty()) {
        out.add(new InvariantViolation(now, "claims", key, c.allocation().isPresent()
            ? "allocated but reserved for no pod" : "reserved for " + c.reservedFor() + " but not allocated"));
      }
      if (c.allocation().isEmpty()) {
        continue;
      }
      Allocation a = c.allocation().get();
      for (Allocation.Result r : a.results()) {
        String other = holder.putIfAbsent(r.deviceId(), key);
        if (other != null) {
          out.add(new InvariantViolation(now, "claims", key, "device " + r.deviceId() + " is also allocated to "
              + other));
        }
      }
      for (String pod : c.reservedFor()) {
        PodState p = s.pods().get(pod);
        if (p == null || !p.node().equals(Optional.of(a.node()))) {
          out.add(new InvariantViolation(now, "claims", key, "reserved for " + pod + ", which "
              + (p == null ? "is gone" : "is not bound to " + a.node())));
        }
      }
    }
    for (String key : bound) {
      PodState p = s.pods().get(key);
      if (p == null || p.pod().spec().nodeName().isPresent()) {
        continue;
      }
      for (PodResourceClaim e : p.pod().spec().resourceClaims()) {
        Optional<ClaimTable.Claim> c = switch (e) {
          case PodResourceClaim.Named n -> s.dra().claim(ObjectMeta.key(p.pod().meta().namespace(),
              n.resourceClaimName()));
          case PodResourceClaim.FromTemplate t -> s.dra().madeFor(key, t.name());
        };
        if (c.isEmpty() || !c.get().reservedFor().contains(key)) {
          out.add(new InvariantViolation(now, "claims", key, "bound without claim " + e.name() + " reserved for it"));
        }
      }
    }
  }

  /** The first resource whose bound pods' requests exceed allocatable, or null. */
  static String overcommitted(NodeInfo info) {
    return overcommitted(info, r -> false);
  }

  /**
   * As above, leaving out the extended resources {@code draBacked} names that the node does not
   * advertise: DRA devices of their DeviceClass serve those requests, through the claims the
   * scheduler made, whose devices the claims invariant checks.
   */
  static String overcommitted(NodeInfo info, Predicate<String> draBacked) {
    var req = info.requested();
    var alloc = info.allocatable();
    if (info.podCount() > alloc.pods()) {
      return info.podCount() + " pods on a node for " + alloc.pods();
    }
    if (req.milliCpu() > alloc.milliCpu()) {
      return "cpu requests " + req.milliCpu() + "m > allocatable " + alloc.milliCpu() + "m";
    }
    if (req.memory() > alloc.memory()) {
      return "memory requests " + req.memory() + " > allocatable " + alloc.memory();
    }
    if (req.ephemeralStorage() > alloc.ephemeralStorage()) {
      return "ephemeral-storage requests exceed allocatable";
    }
    for (int i = 0; i < req.scalarCount(); i++) {
      String name = req.scalarName(i);
      if (req.scalarValue(i) > alloc.scalar(name) && !(alloc.scalar(name) == 0 && draBacked.test(name))) {
        return name + " requests " + req.scalarValue(i) + " > allocatable " + alloc.scalar(name);
      }
    }
    return null;
  }

  private static void checkNode(ClusterState s, Instant now, NodeState n, NodeInfo info,
      List<InvariantViolation> out) {
    if (!n.allocatableShrunk()) {
      String over = overcommitted(info, r -> new ExtendedResourceClaims(s.dra().written()
          .withDefaultClasses(NvidiaDraDriver.deviceClasses())).backed(r));
      if (over != null) {
        out.add(new InvariantViolation(now, "overcommit", n.name(), over));
      }
    }
    // The device manager never hands one device to two containers, and only pods bound here hold any.
    n.devices().ifPresent(d -> {
      Set<String> held = new HashSet<>();
      for (var c : d.allAssignments()) {
        PodState holder = s.pods().get(c.podKey());
        if (holder == null || !holder.node().filter(n.name()::equals).isPresent()) {
          out.add(new InvariantViolation(now, "devices", c.podKey(), "holds devices on " + n.name()
              + " but is not bound there"));
        }
        for (var device : c.devices()) {
          if (!held.add(device.id())) {
            out.add(new InvariantViolation(now, "devices", c.podKey(), "device " + device.id() + " on " + n.name()
                + " is held twice"));
          }
        }
      }
    });
    if (n.pluginRegistered() && n.pluginPod().isPresent()) {
      PodState plugin = s.pods().get(n.pluginPod().get());
      if (plugin == null || !plugin.node().filter(n.name()::equals).isPresent()
          || plugin.phase() != PodState.Phase.RUNNING) {
        out.add(new InvariantViolation(now, "device-plugin", n.name(), "advertises what " + n.pluginPod().get()
            + " registered, but that pod is " + (plugin == null ? "gone" : plugin.phase().name().toLowerCase(
            Locale.ROOT) + plugin.node().map(x -> " on " + x).orElse(""))));
      }
    }
    for (Taint t : n.node().taints()) {
      if (t.effect() != TaintEffect.NO_EXECUTE) {
        continue;
      }
      for (PodInfo p : info.pods()) {
        PodState ps = s.pods().get(p.key());
        if (ps != null && !ps.isTerminating() && !Tolerations.tolerates(p.pod().spec().tolerations(), t)) {
          out.add(new InvariantViolation(now, "taints", p.key(), "runs on " + n.name() + " under untolerated " + t));
        }
      }
    }
  }
}
