package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.engine.dra.Allocation;
import io.gpufleet.engine.dra.CelDeviceSelector;
import io.gpufleet.engine.dra.DeviceAllocator;
import io.gpufleet.engine.dra.DevicesInUse;
import io.gpufleet.engine.dra.DraState;
import io.gpufleet.engine.dra.NvidiaDraDriver;
import io.gpufleet.engine.dra.PodClaims;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.dra.DeviceRequest;
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
 * DRA for one provisioning round, Karpenter's allocator ({@code ignoreDRARequests: false}) or gpufleet's
 * DRA-aware sizing ({@code draRequests: allocate}); they differ in where devices come from.
 *
 * <p>Karpenter's ({@code K:pkg/controllers/provisioning/dra.go} {@code gatherResourceSlices},
 * {@code K:pkg/controllers/provisioning/scheduling/dra.go}): an initialised node offers the slices
 * published for it; a node not initialised yet and a new NodeClaim offer their instance type's
 * template devices ({@link InstanceTypeDevices}), a NodeClaim keeping only the types whose allocation
 * succeeds. Claims go first to existing nodes, then to NodeClaims planned this round, then to a new one.
 *
 * <p>gpufleet's sizing: a pod's
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
      // Under Karpenter's allocator only an initialised node's published slices count; before that its
      // instance type's templates stand for them (gatherResourceSlices, draExistingNode.ResourceSlices).
      boolean published = n.node().isPresent() && (!dra.karpenters() || n.isInitialized());
      if (published) {
        n.node().flatMap(driver::slice).ifPresent(slices::add);
      } else {
        n.claim().ifPresent(c -> slices.addAll(templateSlices(n.name(), c.labels(), c.instanceType())));
      }
      bound.put(n.name(), n.pods());
    }
    this.objects = published(dra, nodes).withSlices(slices);
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
    Optional<String> missing = missingClass(fresh);
    if (missing.isPresent()) {
      return new Need.Refused("Failed to schedule pod, " + missing.get());
    }
    return new Need.Claims(fresh, at.stream().findFirst());
  }

  /**
   * A request of a claim to allocate whose DeviceClass does not exist: for Karpenter's allocator in its
   * words ({@code K:pkg/scheduling/dynamicresources/request.go} {@code buildRequestData}, wrapped by
   * {@code ValidateClaimRequest} and {@code NodeClaim.CanAdd}), for gpufleet's sizing in the scheduler's.
   */
  private Optional<String> missingClass(List<ResourceClaim> fresh) {
    if (!dra.karpenters()) {
      return new DeviceAllocator(objects, cel).missingClass(fresh);
    }
    for (ResourceClaim c : fresh) {
      for (DeviceRequest r : c.spec().requests()) {
        for (DeviceRequest.Alternative a : r.alternatives()) {
          String cls = a.devices().deviceClassName();
          if (objects.deviceClass(cls).isEmpty()) {
            return Optional.of("allocating dynamic resources, validating claim \"" + c.name() + "\": claim \""
                + c.name() + "\" request \"" + a.devices().name() + "\": DeviceClass \"" + cls
                + "\" not found: deviceclasses.resource.k8s.io \"" + cls + "\" not found");
          }
        }
      }
    }
    return Optional.empty();
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
      if (!dra.karpenters()) {
        sized.put(pod.key(), "its ResourceClaims fit the NVIDIA DRA driver's free devices on node " + node);
      }
    }
  }

  /**
   * Whether the draft's claims so far and {@code fresh} can all be allocated on a node of this
   * instance type, from the slice the driver would publish there.
   */
  boolean fitsType(String draft, Labels labels, InstanceType type, List<ResourceClaim> fresh) {
    if (fresh.isEmpty()) {
      return true;
    }
    List<ResourceSlice> slices = templateSlices(draft, labels, type);
    if (slices.isEmpty()) {
      return false;
    }
    List<ResourceClaim> all = new ArrayList<>(draftClaims.getOrDefault(draft, List.of()));
    all.addAll(fresh);
    DeviceAllocator onType = new DeviceAllocator(objects.withSlices(slices), cel);
    return onType.allocate(all, draft, Set.of()) instanceof DeviceAllocator.Outcome.Allocated;
  }

  /** Records that {@code pod}'s fresh claims go with the draft. */
  void commitDraft(Pod pod, String draft, List<ResourceClaim> fresh) {
    draftClaims.computeIfAbsent(draft, d -> new ArrayList<>()).addAll(fresh);
    fresh.forEach(c -> claimAt.put(c.key(), draft));
    if (!dra.karpenters()) {
      sized.put(pod.key(), "its ResourceClaims fit the devices the NVIDIA DRA driver publishes on the new "
          + "NodeClaim's instance types");
    }
  }

  /**
   * Under Karpenter's allocator, the drivers whose devices the draft's claims got on any instance type
   * still open to it, sorted: the NodeClaim's {@code karpenter.sh/requested-dra-drivers}
   * ({@code K:pkg/controllers/provisioning/scheduling/dra.go} draDriversForNodeClaim). None for gpufleet's sizing.
   */
  List<String> drivers(DraftClaim draft) {
    List<ResourceClaim> claims = draftClaims.getOrDefault(draft.draName(), List.of());
    if (!dra.karpenters() || claims.isEmpty()) {
      return List.of();
    }
    Set<String> drivers = new TreeSet<>();
    Labels labels = draft.template.pool().template().labels();
    for (TypeOption o : draft.options) {
      DeviceAllocator onType = new DeviceAllocator(objects.withSlices(templateSlices(draft.draName(), labels,
          o.type())), cel);
      if (onType.allocate(claims, draft.draName(), Set.of()) instanceof DeviceAllocator.Outcome.Allocated done) {
        done.allocations().forEach(a -> a.results().forEach(r -> drivers.add(r.driver())));
      }
    }
    return List.copyOf(drivers);
  }

  /** Per DRA pod placed this round, how its claims were sized. */
  Map<String, String> sized() {
    return sized;
  }

  /**
   * The slices written in the manifests that the round may use. Karpenter's allocator drops those owned
   * by a node that is not an initialised node of the cluster's ({@code gatherResourceSlices}); a
   * node-local slice is taken as owned by its node, as kubelet plugins publish them (the twin's slices
   * keep no ownerReferences).
   */
  private static DraObjects published(DraProvisioning dra, List<StateNode> nodes) {
    DraObjects written = dra.objects();
    if (!dra.karpenters()) {
      return written;
    }
    Set<String> initialised = new TreeSet<>();
    for (StateNode n : nodes) {
      if (n.node().isPresent() && n.isInitialized()) {
        initialised.add(n.node().get().name());
      }
    }
    List<ResourceSlice> kept = written.slices().stream()
        .filter(s -> s.nodeName().map(initialised::contains).orElse(true)).toList();
    return new DraObjects(written.classes(), written.claims(), written.templates(), kept, written.taintRules());
  }

  /** The template slices of a node of {@code type} with these labels, named {@code nodeName}. */
  private List<ResourceSlice> templateSlices(String nodeName, Labels labels, InstanceType type) {
    return dra.devices().slices(nodeName, labels, type);
  }
}
