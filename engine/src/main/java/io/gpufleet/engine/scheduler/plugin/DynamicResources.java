package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.dra.Allocation;
import io.gpufleet.engine.dra.CelDeviceSelector;
import io.gpufleet.engine.dra.DeviceAllocator;
import io.gpufleet.engine.dra.DeviceSelector;
import io.gpufleet.engine.dra.DevicesInUse;
import io.gpufleet.engine.dra.DraState;
import io.gpufleet.engine.dra.ExtendedResourceClaims;
import io.gpufleet.engine.dra.PodClaims;
import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.FitError;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.validation.ResourceClaimValidation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * kube-scheduler's DynamicResources plugin ({@code pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go})
 * over the cluster's DRA objects. PreFilter: a pod without claims is skipped; a claim or template
 * that does not exist, or a request naming a missing class, rejects the pod. Filter: a claim already
 * allocated (by a pod bound earlier) is available only on its node ({@code resourceclaim not available
 * on the node}); the others must all be allocated on the node ({@code cannot allocate all claims}).
 * Both are UnschedulableAndUnresolvable, so preemption does not help. Score: a node where the pod's
 * {@code firstAvailable} requests are met by earlier subrequests ranks higher, {@code 8 - i} for each
 * request met by its subrequest {@code i} ({@code computeScore}), normalised so the best node gets 100
 * ({@code DefaultNormalizeScore}); weight 1, as the default profile enables the plugin without one.
 * PostFilter: no claim can be deallocated for the pod here, so it adds upstream's {@code still not
 * schedulable} (or {@code no new claims to deallocate} when PreFilter failed) before DefaultPreemption's message.
 *
 * <p>A selector that fails to compile or evaluate makes upstream abort the cycle with an error; the
 * twin reports that error as the node's reason instead.
 *
 * <p>Where the claims and their status come from is a {@link ClaimSource}: a one-shot placement
 * replays the bound pods ({@link DraState#replay}); the simulator reads the claims its resource claim
 * controller made and the allocations recorded at bind ({@link #reserve}), which stay put while the
 * claim is reserved.
 */
public final class DynamicResources implements PreFilterPlugin, FilterPlugin, ScorePlugin, PostFilterPlugin {

  public static final String NAME = "DynamicResources";

  /** A pod's claims and the claims' allocations, as the plugin's listers see them. */
  public interface ClaimSource {
    PodClaims.Resolution resolve(Pod pod);

    /** The allocations and reservations in force with {@code snapshot}'s pods bound. */
    DraState state(ClusterSnapshot snapshot);
  }

  private final DraObjects dra;
  private final DeviceAllocator allocator;
  private final ClaimSource claims;
  private final ExtendedResourceClaims extended;
  /**
   * The cycle whose filter the scheduler took last, until its PreScore takes it back: upstream
   * writes the plugin's state in PreFilter and Score reads Filter's allocations from it (the cycle
   * state's {@code stateData.nodeAllocations}); the scheduler asks for a cycle's filter and then
   * its scorer with the same pod and snapshot, so the scorer is that cycle and nothing is allocated
   * twice. A cycle that does not match (another pod, another snapshot) is never used.
   */
  private final AtomicReference<Cycle> filtered = new AtomicReference<>();
  /** The cycle PreFilter made to read the reservations, until the same pod and snapshot's filter takes it. */
  private final AtomicReference<Cycle> prefiltered = new AtomicReference<>();

  /** Over {@code dra}'s claims, templates instantiated as {@code <pod>-<entry>}, status replayed. */
  public DynamicResources(DraObjects dra) {
    this(dra, null, new CelDeviceSelector());
  }

  /** Over {@code dra}'s classes and slices, with claims and their status from {@code claims}. */
  public DynamicResources(DraObjects dra, ClaimSource claims) {
    this(dra, claims, new CelDeviceSelector());
  }

  /**
   * As above, devices selected by {@code selector}; {@code claims} null: the claims of {@code dra},
   * their status replayed from the snapshot's bound pods.
   */
  public DynamicResources(DraObjects dra, ClaimSource claims, DeviceSelector selector) {
    this.dra = dra;
    this.allocator = new DeviceAllocator(dra, selector);
    this.claims = claims != null ? claims : new Replayed();
    this.extended = new ExtendedResourceClaims(dra);
  }

  /** The claims of {@code dra}, their allocations replayed from the bound pods ({@link DraState#replay}). */
  private final class Replayed implements ClaimSource {
    @Override
    public PodClaims.Resolution resolve(Pod pod) {
      return PodClaims.resolve(pod, dra);
    }

    @Override
    public DraState state(ClusterSnapshot snapshot) {
      Map<String, List<Pod>> byNode = new LinkedHashMap<>();
      Map<String, NodeInfo> infos = new HashMap<>();
      for (NodeInfo n : snapshot.nodes()) {
        List<Pod> pods = new ArrayList<>();
        for (PodInfo p : n.pods()) {
          pods.add(p.pod());
        }
        byNode.put(n.name(), pods);
        infos.put(n.name(), n);
      }
      // A bound pod's claims, with the claim made for its DRA-backed extended resources on its node.
      return DraState.replay(byNode, (pod, node) -> withExtended(pod, infos.get(node), resolve(pod)), allocator);
    }
  }

  /**
   * The pod's claims and, where it asks for extended resources a DeviceClass serves that
   * {@code node}'s device plugin does not advertise, the claim the scheduler makes for them on it.
   */
  private PodClaims.Resolution withExtended(Pod pod, NodeInfo node, PodClaims.Resolution resolved) {
    if (!(resolved instanceof PodClaims.Resolution.Claims c) || node == null) {
      return resolved;
    }
    Optional<ResourceClaim> special = extendedClaim(pod, node);
    if (special.isEmpty()) {
      return resolved;
    }
    List<ResourceClaim> all = new ArrayList<>(c.claims());
    all.add(special.get());
    return new PodClaims.Resolution.Claims(all);
  }

  /** The claim the scheduler makes for the pod's DRA-backed extended resources on {@code node}, if any. */
  public Optional<ResourceClaim> extendedClaim(Pod pod, NodeInfo node) {
    return extended.claimFor(pod, name -> node.allocatable().scalar(name));
  }

  /** The pod's extended resources a DeviceClass serves. */
  public ExtendedResourceClaims extendedResources() {
    return extended;
  }

  /** Whether the plugin has anything to do for the pod: claims, or DRA-backed extended resources. */
  private boolean uses(Pod pod) {
    return !pod.spec().resourceClaims().isEmpty() || extended.uses(pod);
  }

  /** The pod's own claims as the listers see them (none for a pod without {@code resourceClaims}). */
  private PodClaims.Resolution own(Pod pod) {
    return pod.spec().resourceClaims().isEmpty() ? new PodClaims.Resolution.Claims(List.of()) : claims.resolve(pod);
  }

  public DraObjects objects() {
    return dra;
  }

  @Override
  public String pluginName() {
    return NAME;
  }

  @Override
  public PreFilterPlugin.Result preFilter(PodInfo pod) {
    if (!uses(pod.pod())) {
      return PreFilterPlugin.Result.ALL;
    }
    return switch (own(pod.pod())) {
      case PodClaims.Resolution.Missing m -> new PreFilterPlugin.Result.Rejected(Status.unresolvable(NAME, m.reason()));
      case PodClaims.Resolution.Claims c -> allocator.missingClass(c.claims())
          .<PreFilterPlugin.Result>map(reason -> new PreFilterPlugin.Result.Rejected(Status.unresolvable(NAME, reason)))
          .orElse(PreFilterPlugin.Result.ALL);
    };
  }

  /**
   * {@code resource.ResourceClaimReservedForMaxSize}: a claim's {@code status.reservedFor} holds at most
   * 256 consumers (k8s.io/api resource/v1 types.go), as the API server validates it.
   */
  public static final int RESERVED_FOR_MAX_SIZE = ResourceClaimValidation.RESERVED_FOR_MAX_SIZE;

  /**
   * PreFilter with the snapshot's reservations: an allocated claim already reserved for 256 other pods
   * cannot take this one ({@code resourceclaim.CanBeReserved}); upstream's PreFilter rejects the pod with
   * {@code resourceclaim in use} (statusUnschedulable), and it waits until one of them leaves.
   */
  @Override
  public PreFilterPlugin.Result preFilter(PodInfo pod, ClusterSnapshot snapshot) {
    PreFilterPlugin.Result r = preFilter(pod);
    if (!(r instanceof PreFilterPlugin.Result.AllNodes)
        || !(claims.resolve(pod.pod()) instanceof PodClaims.Resolution.Claims c)) {
      return r;
    }
    Cycle cycle = new Cycle(pod, snapshot, c.claims(),
        c.claims().isEmpty() && !uses(pod.pod()) ? NOTHING_ALLOCATED : state(snapshot));
    prefiltered.set(cycle);
    DraState state = cycle.state;
    for (ResourceClaim claim : c.claims()) {
      List<String> reserved = state.reservedFor().getOrDefault(claim.key(), List.of());
      if (state.allocations().containsKey(claim.key()) && reserved.size() >= RESERVED_FOR_MAX_SIZE
          && !reserved.contains(pod.key())) {
        return new PreFilterPlugin.Result.Rejected(Status.unresolvable(NAME, "resourceclaim in use"));
      }
    }
    return r;
  }

  /**
   * The state of a cycle whose pod has no claims and no DRA-backed extended resources: such a cycle
   * reads none (its PreFilter checks no claim, its Filter allocates nothing anywhere, its Score is 0
   * for every node), and replaying every bound pod's claims for each pod made a one-shot placement of
   * a dump's thousands of pods quadratic in pods.
   */
  private static final DraState NOTHING_ALLOCATED = new DraState(Map.of(), Map.of(), DevicesInUse.NONE);

  /** PreFilter's state: the pod's claims and the snapshot's allocations, for this cycle's Filter and Score. */
  @Override
  public Optional<FilterPlugin> forCycle(PodInfo pod, ClusterSnapshot snapshot) {
    Cycle read = prefiltered.get();
    Optional<Cycle> cycle = read != null && read.pod == pod && read.snapshot == snapshot
        && prefiltered.compareAndSet(read, null) ? Optional.of(read) : cycle(pod, snapshot);
    cycle.ifPresent(filtered::set);
    return cycle.map(FilterPlugin.class::cast);
  }

  /**
   * PreScore: the cycle whose filter this pod's cycle ran over {@code snapshot}, so Score reads the
   * allocations Filter made; a new one when there is none (Filter disabled); none for a pod without claims.
   */
  @Override
  public Optional<ScorePlugin> preScore(PodInfo pod, ClusterSnapshot snapshot) {
    Cycle last = filtered.get();
    if (last != null && last.pod == pod && last.snapshot == snapshot && filtered.compareAndSet(last, null)) {
      return Optional.of(last);
    }
    return cycle(pod, snapshot).map(ScorePlugin.class::cast);
  }

  private Optional<Cycle> cycle(PodInfo pod, ClusterSnapshot snapshot) {
    if (!uses(pod.pod()) || !(own(pod.pod()) instanceof PodClaims.Resolution.Claims c)) {
      return Optional.empty();
    }
    return Optional.of(new Cycle(pod, snapshot, c.claims(), state(snapshot)));
  }

  @Override
  public long score(PodInfo pod, NodeInfo node) {
    return cycle(pod, ClusterSnapshot.ofInfos(List.of(node))).map(s -> s.score(pod, node)).orElse(0L);
  }

  @Override
  public void normalize(PodInfo pod, long[] scores) {
    ScorePlugin.defaultNormalize(scores, false);
  }

  /** The pod's claims as the plugin resolves them. */
  public PodClaims.Resolution claims(Pod pod) {
    return claims.resolve(pod);
  }

  /**
   * The claims of a pod bound to {@code node}: its own, and the one made for its DRA-backed extended
   * resources there (named {@code <pod>-extended-resources}, as a one-shot placement names it).
   */
  public PodClaims.Resolution claimsOn(Pod pod, NodeInfo node) {
    return withExtended(pod, node, own(pod));
  }

  /** The allocations the pods bound in {@code snapshot} hold. */
  public DraState state(ClusterSnapshot snapshot) {
    return claims.state(snapshot);
  }

  /**
   * Why the kubelet will not start {@code pod}, bound to its node, for its claims: its DRA manager
   * fetches each claim and refuses one not reserved for the pod (pkg/kubelet/cm/dra/manager.go
   * {@code prepareResources}: {@code pod <name> (<uid>) is not allowed to use ResourceClaim <claim>
   * (<uid>)}, wrapped as {@code prepare dynamic resources: ...}), or a claim that does not exist. The
   * twin's objects have no UIDs, so none is printed. Empty when every claim is reserved for the pod.
   * Only a pod bound by {@code spec.nodeName} can lack a reservation: the scheduler reserves a pod's
   * claims before it binds the pod.
   */
  public Optional<String> kubeletRefusal(Pod pod, DraState state) {
    if (pod.spec().resourceClaims().isEmpty()) {
      return Optional.empty();
    }
    return switch (claims.resolve(pod)) {
      case PodClaims.Resolution.Missing m -> Optional.of(PREPARE + m.reason());
      case PodClaims.Resolution.Claims c -> c.claims().stream()
          .filter(claim -> !state.reservedFor().getOrDefault(claim.key(), List.of()).contains(pod.key()))
          .findFirst()
          .map(claim -> notAllowed(pod.name(), claim.name()));
    };
  }

  /** The kubelet's event message for a claim not reserved for the pod, without the UIDs the twin lacks. */
  public static String notAllowed(String podName, String claimName) {
    return PREPARE + "pod " + podName + " is not allowed to use ResourceClaim " + claimName;
  }

  /** The kubelet's event message before its DRA manager's error (kuberuntime_manager.go, manager.go). */
  private static final String PREPARE = "Failed to prepare dynamic resources: prepare dynamic resources: ";

  /**
   * Reserve: the allocations of the pod's claims not yet allocated, made on {@code node} (the node
   * its cycle chose) from what {@code snapshot}'s pods leave free; {@link DeviceAllocator.Outcome.Allocated}
   * with none when all were allocated already. The caller records them in the claims' status.
   */
  public DeviceAllocator.Outcome reserve(Pod pod, String node, ClusterSnapshot snapshot) {
    Optional<NodeInfo> info = snapshot.node(node);
    if (info.isEmpty() || !(withExtended(pod, info.get(), own(pod)) instanceof PodClaims.Resolution.Claims c)) {
      return new DeviceAllocator.Outcome.Unsatisfiable();
    }
    return allocateFresh(c.claims(), node, state(snapshot));
  }

  /** The claims' allocation on {@code node}: none needed, one elsewhere (unsatisfiable), or the allocator's. */
  private DeviceAllocator.Outcome allocateFresh(List<ResourceClaim> podClaims, String node, DraState state) {
    List<ResourceClaim> fresh = new ArrayList<>();
    for (ResourceClaim c : podClaims) {
      Allocation a = state.allocations().get(c.key());
      if (a == null) {
        fresh.add(c);
      } else if (!a.node().equals(node)) {
        return new DeviceAllocator.Outcome.Unsatisfiable();
      }
    }
    return fresh.isEmpty() ? new DeviceAllocator.Outcome.Allocated(List.of())
        : allocator.allocate(fresh, node, state.inUse());
  }

  @Override
  public Status filter(PodInfo pod, NodeInfo node) {
    Optional<Cycle> cycle = cycle(pod, ClusterSnapshot.ofInfos(List.of(node)));
    return cycle.isEmpty() ? Status.SUCCESS : cycle.get().filter(pod, node);
  }

  @Override
  public PostFilterPlugin.Result postFilter(PodInfo pod, ClusterSnapshot snapshot, FitError error) {
    String message;
    if (!uses(pod.pod())) {
      message = "";
    } else if (preFilter(pod) instanceof PreFilterPlugin.Result.Rejected) {
      message = "no new claims to deallocate";
    } else {
      message = "still not schedulable";
    }
    return new PostFilterPlugin.Result(Optional.empty(), List.of(), message);
  }

  /**
   * {@code computeScore}: for each claim (allocated before, or by this node's allocation), each
   * {@code firstAvailable} request adds {@code 8 - i} for every subrequest {@code i} its results name.
   * A node where none of the claims needed allocating scores 0, as upstream keeps no allocation for it.
   */
  static long subrequestScore(List<ResourceClaim> claims, Map<String, Allocation> allocated, List<Allocation> fresh) {
    if (fresh.isEmpty()) {
      return 0;
    }
    Map<String, Allocation> byClaim = new LinkedHashMap<>(allocated);
    fresh.forEach(a -> byClaim.put(a.claimKey(), a));
    long score = 0;
    for (ResourceClaim c : claims) {
      Allocation a = byClaim.get(c.key());
      if (a == null) {
        continue;
      }
      Set<String> requests = new HashSet<>();
      a.results().forEach(r -> requests.add(r.request()));
      for (DeviceRequest r : c.spec().requests()) {
        List<DeviceRequest.Alternative> subrequests = r.firstAvailable().isEmpty() ? List.of() : r.alternatives();
        for (int i = 0; i < subrequests.size(); i++) {
          if (requests.contains(subrequests.get(i).resultName())) {
            score += DeviceRequest.FIRST_AVAILABLE_MAX_SIZE - i;
          }
        }
      }
    }
    return score;
  }

  /**
   * One pod's Filter and Score over a snapshot's allocations. Filter's outcome per node is kept, so
   * Score reads the allocation Filter found (upstream's {@code nodeAllocations}, "the result of Filter
   * for the nodes") and each node is allocated once per cycle. A cycle belongs to one scheduling
   * cycle, which runs on one thread.
   */
  private final class Cycle implements FilterPlugin, ScorePlugin {
    private final PodInfo pod;
    private final ClusterSnapshot snapshot;
    private final List<ResourceClaim> claims;
    private final DraState state;
    private final Map<String, DeviceAllocator.Outcome> byNode = new HashMap<>();
    /**
     * Whether the pod asks for an extended resource a DeviceClass serves: without one, no node gets a
     * claim for it, found once here rather than per node of every cycle (a dump's GPU pods mostly).
     */
    private final boolean extendedBacked;

    Cycle(PodInfo pod, ClusterSnapshot snapshot, List<ResourceClaim> claims, DraState state) {
      this.pod = pod;
      this.snapshot = snapshot;
      this.claims = claims;
      this.state = state;
      this.extendedBacked = extended.uses(pod.pod());
    }

    @Override
    public String pluginName() {
      return NAME;
    }

    /**
     * The claims' allocation on {@code node}, with the claim for the pod's DRA-backed extended
     * resources there, made the first time this cycle asks.
     */
    private DeviceAllocator.Outcome outcome(NodeInfo node) {
      return byNode.computeIfAbsent(node.name(), n -> {
        List<ResourceClaim> all = claims;
        Optional<ResourceClaim> special = extendedBacked ? extendedClaim(pod.pod(), node) : Optional.empty();
        if (special.isPresent()) {
          all = new ArrayList<>(claims);
          all.add(special.get());
        }
        return allocateFresh(all, n, state);
      });
    }

    @Override
    public Status filter(PodInfo pod, NodeInfo node) {
      for (ResourceClaim c : claims) {
        Allocation a = state.allocations().get(c.key());
        if (a != null && !a.node().equals(node.name())) {
          return Status.unresolvable(NAME, "resourceclaim not available on the node");
        }
      }
      return switch (outcome(node)) {
        case DeviceAllocator.Outcome.Allocated a -> Status.SUCCESS;
        case DeviceAllocator.Outcome.Unsatisfiable u -> Status.unresolvable(NAME, "cannot allocate all claims");
        case DeviceAllocator.Outcome.Failed f -> Status.unresolvable(NAME, f.message());
      };
    }

    /** The allocation Filter found on the node (or, with Filter disabled, the allocator's now). */
    @Override
    public long score(PodInfo pod, NodeInfo node) {
      return outcome(node) instanceof DeviceAllocator.Outcome.Allocated a
          ? subrequestScore(claims, state.allocations(), a.allocations()) : 0;
    }

    @Override
    public void normalize(PodInfo pod, long[] scores) {
      ScorePlugin.defaultNormalize(scores, false);
    }
  }
}
