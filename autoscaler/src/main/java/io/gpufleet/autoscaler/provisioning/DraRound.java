package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.engine.dra.Allocation;
import io.gpufleet.engine.dra.CelDeviceSelector;
import io.gpufleet.engine.dra.DeviceAllocator;
import io.gpufleet.engine.dra.DevicesInUse;
import io.gpufleet.engine.dra.DraState;
import io.gpufleet.engine.dra.NvidiaDraDriver;
import io.gpufleet.engine.dra.PodClaims;
import io.gpufleet.model.cloud.GpuSpec;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.dra.ResourceSlice;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.pod.Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * gpufleet's DRA-aware sizing for one provisioning round ({@code draRequests: allocate}): a pod's
 * claims are allocated by the scheduler's own {@link DeviceAllocator} (the same CEL evaluation)
 * against the NVIDIA DRA driver's slice of each node: an existing node's as the driver publishes it
 * (its claim's instance type while the node is not up), a new NodeClaim's as the driver would publish
 * it on each instance type still open to it, where the NodePool's labels leave its GPUs to the
 * driver. Devices held by the pods already bound, and by the pods
 * placed earlier in the round, are not given twice; a claim allocated already pins its pods to that
 * node.
 */
final class DraRound {

  /** Where the pod's claims can go, or why they cannot. */
  sealed interface Need {
    /** {@code fresh} claims to allocate; {@code pinned} the node or draft an allocated claim holds, if any. */
    record Claims(List<ResourceClaim> fresh, Optional<String> pinned) implements Need {}

    record Refused(String message) implements Need {}
  }

  private final DraProvisioning dra;
  private final DraObjects objects;
  private final CelDeviceSelector cel = new CelDeviceSelector();
  private DevicesInUse inUse = DevicesInUse.NONE;
  private final Map<String, String> claimAt = new HashMap<>();
  private final Map<String, List<ResourceClaim>> draftClaims = new HashMap<>();
  private final Map<String, String> sized = new LinkedHashMap<>();

  DraRound(DraProvisioning dra, List<StateNode> nodes) {
    this.dra = dra;
    NvidiaDraDriver driver = new NvidiaDraDriver(dra.gpus());
    List<ResourceSlice> slices = new ArrayList<>();
    Map<String, List<Pod>> bound = new LinkedHashMap<>();
    for (StateNode n : nodes) {
      // A registered node offers what the driver publishes there (nothing where the device plugin
      // has its GPUs); one not registered yet what the driver would publish on its instance type.
      Optional<ResourceSlice> s = n.node().isPresent() ? n.node().flatMap(driver::slice)
          : n.claim().flatMap(c -> templateSlice(n.name(), c.labels(), c.instanceType()));
      s.ifPresent(slices::add);
      bound.put(n.name(), n.pods());
    }
    this.objects = dra.objects().withSlices(slices);
    DraState state = dra.claims().recorded().orElseGet(() -> DraState.replay(bound, (pod, node) -> resolve(pod),
        new DeviceAllocator(objects, cel)));
    inUse = state.inUse();
    state.allocations().forEach((k, a) -> claimAt.put(k, a.node()));
  }

  /** The pod's claims split into those to allocate and the place an allocated one pins it to. */
  Need need(Pod pod) {
    return switch (resolve(pod)) {
      case PodClaims.Resolution.Missing m -> new Need.Refused("Failed to schedule pod, " + m.reason());
      case PodClaims.Resolution.Claims claims -> split(claims.claims());
    };
  }

  private PodClaims.Resolution resolve(Pod pod) {
    return PodClaims.resolve(pod, objects, dra.claims().templateClaims());
  }

  private Need split(List<ResourceClaim> claims) {
    List<ResourceClaim> fresh = new ArrayList<>();
    Set<String> at = new TreeSet<>();
    for (ResourceClaim c : claims) {
      String where = claimAt.get(c.key());
      if (where == null) {
        fresh.add(c);
      } else {
        at.add(where);
      }
    }
    if (at.size() > 1) {
      return new Need.Refused("Failed to schedule pod, its claims are allocated on different nodes: " + at);
    }
    return new Need.Claims(fresh, at.stream().findFirst());
  }

  /** Whether {@code fresh} can be allocated on the existing node now. */
  boolean fitsExisting(String node, List<ResourceClaim> fresh) {
    return new DeviceAllocator(objects, cel).allocate(fresh, node, inUse) instanceof DeviceAllocator.Outcome.Allocated;
  }

  /** Allocates {@code fresh} on the existing node (after {@link #fitsExisting}) for {@code pod}. */
  void commitExisting(Pod pod, String node, List<ResourceClaim> fresh) {
    if (new DeviceAllocator(objects, cel).allocate(fresh, node, inUse)
        instanceof DeviceAllocator.Outcome.Allocated done) {
      for (Allocation a : done.allocations()) {
        claimAt.put(a.claimKey(), node);
        inUse = inUse.plus(a);
      }
      sized.put(pod.key(), "its ResourceClaims fit the NVIDIA DRA driver's free devices on node " + node);
    }
  }

  /**
   * Whether the draft's claims so far and {@code fresh} can all be allocated on a node of this
   * instance type, from the slice the driver would publish there.
   */
  boolean fitsType(String draft, Labels labels, InstanceType type, List<ResourceClaim> fresh) {
    Optional<ResourceSlice> slice = templateSlice(draft, labels, type);
    if (slice.isEmpty()) {
      return fresh.isEmpty();
    }
    List<ResourceClaim> all = new ArrayList<>(draftClaims.getOrDefault(draft, List.of()));
    all.addAll(fresh);
    DeviceAllocator onType = new DeviceAllocator(objects.withSlices(List.of(slice.get())), cel);
    return onType.allocate(all, draft, Set.of()) instanceof DeviceAllocator.Outcome.Allocated;
  }

  /** Records that {@code pod}'s fresh claims go with the draft. */
  void commitDraft(Pod pod, String draft, List<ResourceClaim> fresh) {
    draftClaims.computeIfAbsent(draft, d -> new ArrayList<>()).addAll(fresh);
    fresh.forEach(c -> claimAt.put(c.key(), draft));
    sized.put(pod.key(), "its ResourceClaims fit the devices the NVIDIA DRA driver publishes on the new "
        + "NodeClaim's instance types");
  }

  /** Per DRA pod placed this round, how its claims were sized. */
  Map<String, String> sized() {
    return sized;
  }

  /** The slice the driver would publish on a new node of {@code type} with these labels, if it serves it. */
  private Optional<ResourceSlice> templateSlice(String nodeName, Labels labels, InstanceType type) {
    Optional<GpuSpec> gpu = type.gpu();
    if (gpu.isEmpty() || !DraProvisioning.runsDraDriver(labels)) {
      return Optional.empty();
    }
    return dra.gpus().find(gpu.get().catalogName())
        .map(m -> NvidiaDraDriver.slice(nodeName, m, gpu.get().count()));
  }
}
