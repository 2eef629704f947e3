package io.gpufleet.engine.dra;

import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.pod.Pod;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * The claims' allocations implied by the pods bound so far: each node's pods, in the order they
 * were bound, allocate their claims not yet allocated from what is left on the node, exactly as
 * their scheduling cycle did, so the state is a function of the bound pods and no cache is kept. A
 * claim shared by several pods is allocated once, by the first, and reserved for each
 * ({@code status.reservedFor}); a claim whose last pod leaves is free again.
 *
 * <p>A pod that names its node ({@code spec.nodeName}) never passed a scheduler, so nothing allocated
 * its claims (test/e2e/dra "must not run a pod if a claim is not ready"): it holds a claim only where
 * the claim's recorded status (a dump's, the truth of "now") allocates it and reserves it for the pod,
 * and those recorded allocations are in use before any other pod's is replayed.
 */
public record DraState(Map<String, Allocation> allocations, Map<String, List<String>> reservedFor, DevicesInUse inUse) {

  public DraState {
    allocations = Collections.unmodifiableMap(new LinkedHashMap<>(allocations));
    Map<String, List<String>> r = new LinkedHashMap<>();
    reservedFor.forEach((k, v) -> r.put(k, List.copyOf(v)));
    reservedFor = Collections.unmodifiableMap(r);
    Objects.requireNonNull(inUse, "inUse");
  }

  /**
   * Replays {@code podsByNode} (node name to its pods in bind order, nodes in a fixed order), each
   * pod's claims as {@code resolve} gives them for its node.
   * Pods whose claims cannot be resolved or allocated there (bound by {@code nodeName}) hold nothing.
   */
  public static DraState replay(Map<String, List<Pod>> podsByNode,
      BiFunction<Pod, String, PodClaims.Resolution> resolve, DeviceAllocator allocator) {
    Map<String, Allocation> allocations = new LinkedHashMap<>();
    Map<String, List<String>> reserved = new LinkedHashMap<>();
    DevicesInUse inUse = DevicesInUse.NONE;
    for (var e : podsByNode.entrySet()) {
      for (Pod pod : e.getValue()) {
        if (pod.spec().nodeName().isPresent()
            && resolve.apply(pod, e.getKey()) instanceof PodClaims.Resolution.Claims claims) {
          for (ResourceClaim c : claims.claims()) {
            if (recordedFor(c, pod) && !allocations.containsKey(c.key())) {
              Allocation a = Allocation.recorded(c, e.getKey()).orElseThrow();
              allocations.put(c.key(), a);
              inUse = inUse.plus(a);
            }
          }
        }
      }
    }
    for (var e : podsByNode.entrySet()) {
      for (Pod pod : e.getValue()) {
        if (!(resolve.apply(pod, e.getKey()) instanceof PodClaims.Resolution.Claims claims)
            || claims.claims().isEmpty()) {
          continue;
        }
        if (pod.spec().nodeName().isPresent()) {
          // Bound by name: only what the recorded status reserves for it, nothing allocated afresh.
          for (ResourceClaim c : claims.claims()) {
            if (recordedFor(c, pod) && allocations.containsKey(c.key())) {
              reserved.computeIfAbsent(c.key(), k -> new ArrayList<>()).add(pod.key());
            }
          }
          continue;
        }
        List<ResourceClaim> fresh = new ArrayList<>();
        boolean elsewhere = false;
        for (ResourceClaim c : claims.claims()) {
          Allocation a = allocations.get(c.key());
          if (a == null) {
            fresh.add(c);
          } else if (!a.node().equals(e.getKey())) {
            elsewhere = true;
          }
        }
        if (elsewhere) {
          continue;
        }
        if (!fresh.isEmpty()) {
          // A bound pod keeps devices allocated to it before they were tainted: NoSchedule evicts no one.
          DeviceAllocator.Outcome o = allocator.allocate(fresh, e.getKey(), inUse);
          if (!(o instanceof DeviceAllocator.Outcome.Allocated)) {
            o = allocator.ignoringTaints().allocate(fresh, e.getKey(), inUse);
          }
          if (!(o instanceof DeviceAllocator.Outcome.Allocated done)) {
            continue;
          }
          for (Allocation a : done.allocations()) {
            allocations.put(a.claimKey(), a);
            inUse = inUse.plus(a);
          }
        }
        for (ResourceClaim c : claims.claims()) {
          reserved.computeIfAbsent(c.key(), k -> new ArrayList<>()).add(pod.key());
        }
      }
    }
    return new DraState(allocations, reserved, inUse);
  }

  /** Whether the claim's recorded status (a dump's) allocates it and reserves it for {@code pod}. */
  public static boolean recordedFor(ResourceClaim c, Pod pod) {
    return c.namespace().equals(pod.meta().namespace()) && c.status().filter(s -> s.allocatedFor(pod.name())).isPresent();
  }
}
