package io.gpufleet.sim.controller;

import io.gpufleet.engine.deviceplugin.GpuOperator;
import io.gpufleet.engine.dra.Allocation;
import io.gpufleet.engine.dra.DeviceAllocator;
import io.gpufleet.engine.dra.DraState;
import io.gpufleet.engine.dra.GpuClaimPreparation;
import io.gpufleet.engine.dra.NvidiaDraDriver;
import io.gpufleet.engine.dra.PodClaims;
import io.gpufleet.engine.mig.MigManager;
import io.gpufleet.engine.scheduler.BatchPlacement;
import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.FilterMemo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.ScheduleResult;
import io.gpufleet.engine.scheduler.Scheduler;
import io.gpufleet.engine.scheduler.SchedulerProfile;
import io.gpufleet.model.workload.DisruptionBudget;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.engine.scheduler.plugin.DynamicResources;
import io.gpufleet.engine.workload.ControllerSelectors;
import io.gpufleet.engine.workload.PodNames;
import io.gpufleet.model.collect.PMap;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.dra.ResourceSlice;
import io.gpufleet.model.meta.Namespaces;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.state.BySequence;
import io.gpufleet.sim.state.ClaimTable;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.state.PodState;
import io.gpufleet.sim.state.WorkloadState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.random.RandomGenerator;

/**
 * kube-scheduler: drains the queue of pending pods, highest priority first then oldest, through the
 * engine's scheduler on the current image, keeping its rotating start index between cycles. A pod
 * that fits nowhere keeps the FailedScheduling message and, the first time, opens Karpenter's batch.
 * The profile's spread selectors are made again only when a workload they read changed
 * ({@link #spreadWorkloadsChanged}): a shortcut of the twin's, not a step of kube-scheduler's.
 */
final class KubeScheduler {

  private final ApiServer api;
  private final RandomGenerator tieBreaks;
  /** The random suffixes of the claims the scheduler makes for DRA-backed extended resources. */
  private final RandomGenerator claimNames;
  private Scheduler scheduler;
  /**
   * kube-scheduler's default profile with preemption over the scenario's namespaces (their labels
   * for InterPodAffinity's namespaceSelector), made once: its plugins stay the same objects.
   */
  private final SchedulerProfile base;
  /**
   * Node-local filter verdicts across cycles, by pod spec; not used under {@link #fullScans}, so that
   * oracle also checks it.
   */
  private final FilterMemo filterMemo = new FilterMemo();
  /** A pod scheduled last with each spec object: the requests of the next pod of that spec are its ({@link PodInfo#of(Pod, PodInfo)}). */
  private final Map<PodSpec, PodInfo> specInfos = new IdentityHashMap<>();
  private static final int SPEC_INFOS = 4096;
  /** The Deployments' ReplicaSet names the spread selectors are made with, by Deployment value. */
  private final Revisions revisions = new Revisions();
  /** NVIDIA's DRA driver's gates: DynamicMIG changes the slices it publishes. */
  private final GpuClaimPreparation.FeatureGates draDriver;
  /** The node each preemptor was nominated to, while it waits for its victims to exit. */
  private final Map<String, String> nominated = new HashMap<>();
  /** The workloads {@link #scheduler}'s spread selectors were built from (an immutable map: identity tells change). */
  private PMap<ObjectRef, WorkloadState> selectorsFrom;
  /** Whether {@link #scheduler}'s profile was built with DRA in play. */
  private boolean builtWithDra;
  /** The written DRA objects and node-shape epoch {@link #dynamicResources} was built from. */
  private Object draFrom;
  private long draNodesAt = -1;
  /** Whether NVIDIA's DRA driver serves a node, as of node-shape epoch {@link #driverNodesAt}. */
  private boolean driverNodes;
  private long driverNodesAt = -1;
  /** The nodes the driver serves, as of the nodes map {@link #driverNodesOf} and the GPU catalogue it was told. */
  private final Set<String> driverServed = new HashSet<>();
  private PMap<String, NodeState> driverNodesOf;
  private Object driverCatalog;
  /** The scheduler's DynamicResources, once the run uses DRA. */
  private DynamicResources dynamicResources;
  private int startIndex;
  /** The capacity epoch at which each pod last failed: it waits for a later one. */
  private final Map<String, Long> failedAt = new HashMap<>();
  /**
   * The pending pods the next cycle must look at if the capacity epoch is still {@link #lookAtEpoch}
   * (null before the first cycle), with the images of pods and pending keys the set was made from.
   */
  private Set<String> lookAt;
  private long lookAtEpoch;
  private PMap<String, PodState> podsSeen;
  private PMap<String, Boolean> pendingSeen;
  /** Every cycle scans every pending pod, as before {@link #lookAt}: the oracle its tests compare with. */
  private final boolean fullScans;

  KubeScheduler(ApiServer api, RandomGenerator tieBreaks, RandomGenerator claimNames, Namespaces namespaces,
      GpuClaimPreparation.FeatureGates draDriver) {
    this(api, tieBreaks, claimNames, namespaces, draDriver, false);
  }

  KubeScheduler(ApiServer api, RandomGenerator tieBreaks, RandomGenerator claimNames, Namespaces namespaces,
      GpuClaimPreparation.FeatureGates draDriver, boolean fullScans) {
    this.fullScans = fullScans;
    this.api = api;
    this.draDriver = draDriver;
    this.tieBreaks = tieBreaks;
    this.claimNames = claimNames;
    // DefaultPreemption lists the PDBs with the status Karpenter's view reads (ViewBuilder.pdbs),
    // worked out from the cluster as it is when a preemption finds possible victims.
    this.base = SchedulerProfile.defaults().withPreemption().withNamespaceLabels(namespaces::of)
        .withDisruptionBudgets(this::disruptionBudgets);
    this.scheduler = new Scheduler(base);
  }

  /**
   * One scheduling attempt. A pod pinned to nodes by {@code metadata.name} field terms (a daemon
   * pod) is narrowed to them by NodeAffinity's PreFilter inside the engine's scheduler.
   */
  private ScheduleResult schedule(PodState p) {
    var workloads = api.state().workloads();
    ClaimTable dra = api.state().dra();
    // DRA plays a part once anything of it was written or a pod has claims, and wherever NVIDIA's driver
    // serves a node: its gpu.nvidia.com class serves nvidia.com/gpu requests there (DRAExtendedResource).
    boolean draInPlay = !dra.isEmpty() || driverServesNodes();
    boolean draChanged = draInPlay && (dra.written() != draFrom || api.nodeShapeEpoch() != draNodesAt);
    boolean rebuild = draChanged;
    if (!rebuild && workloads != selectorsFrom) {
      rebuild = draInPlay || builtWithDra || fullScans || selectorsFrom == null
          || spreadWorkloadsChanged(selectorsFrom, workloads);
      if (!rebuild) {
        // Only workloads the selectors do not read changed: the profile made from the last map stands.
        selectorsFrom = workloads;
      }
    }
    if (rebuild) {
      // PodTopologySpread's default constraints spread the pods of the ReplicaSets and StatefulSets here.
      selectorsFrom = workloads;
      builtWithDra = draInPlay;
      SchedulerProfile profile = base.withSpreadSelectors(ControllerSelectors.of(
          workloads.values().stream().map(WorkloadState::workload).toList(), revisions::of));
      if (draInPlay) {
        draFrom = dra.written();
        draNodesAt = api.nodeShapeEpoch();
        dynamicResources = dynamicResources(dra.written());
        profile = profile.withDynamicResources(dynamicResources);
      }
      scheduler = new Scheduler(profile);
    }
    var snapshot = api.state().snapshot();
    PodSpec spec = p.pod().spec();
    PodInfo info = PodInfo.of(p.pod(), specInfos.get(spec));
    if (specInfos.size() >= SPEC_INFOS) {
      specInfos.clear();
    }
    specInfos.put(spec, info);
    ScheduleResult r = scheduler.schedule(info, snapshot, tieBreaks, startIndex, false,
        fullScans ? null : filterMemo);
    if (snapshot.size() > 0) {
      startIndex = (startIndex + r.evaluatedNodes()) % snapshot.size();
    }
    return r;
  }

  /**
   * Whether the spread selectors made from {@code after} could differ from those made from {@code
   * before}: a Deployment, ReplicaSet or StatefulSet came, went or changed its spec ({@link
   * ControllerSelectors} reads only those workloads' values). A Job's status changes at every pod it
   * runs, and the selectors were made again from every workload for each (a shortcut of the twin's,
   * not a step of kube-scheduler's; {@link #fullScans} makes them again at every change, the oracle).
   */
  private static boolean spreadWorkloadsChanged(PMap<ObjectRef, WorkloadState> before,
      PMap<ObjectRef, WorkloadState> after) {
    boolean[] changed = {false};
    before.diff(after, (k, was, now) -> {
      Workload w0 = was == null ? null : was.workload();
      Workload w1 = now == null ? null : now.workload();
      boolean read = w0 != null && ControllerSelectors.selects(w0) || w1 != null && ControllerSelectors.selects(w1);
      if (w0 != w1 && read) {
        changed[0] = true;
      }
    });
    return changed[0];
  }

  /** The PDBs and their {@code status.disruptionsAllowed} now, as DefaultPreemption's PDB lister reads them. */
  private List<DisruptionBudget> disruptionBudgets() {
    return ViewBuilder.pdbs(api.state()).entries();
  }

  /** NVIDIA's DRA driver with the run's feature gates. */
  private NvidiaDraDriver driver() {
    return new NvidiaDraDriver(api.devicePlugin().operator().catalog(), MigManager.STOCK, draDriver);
  }

  /**
   * Whether NVIDIA's DRA driver serves any node now (worked out again when the nodes' shapes change).
   * Whether it serves a node depends only on that node's NodeState, so the set of nodes it serves
   * follows the nodes map by its diff since the last time: a node coming or going costs itself, not
   * the fleet ({@link #fullScans} looks at every node, the oracle).
   */
  private boolean driverServesNodes() {
    if (api.nodeShapeEpoch() != driverNodesAt) {
      driverNodesAt = api.nodeShapeEpoch();
      NvidiaDraDriver driver = driver();
      PMap<String, NodeState> nodes = api.state().nodes();
      Object catalog = api.devicePlugin().operator().catalog();
      if (fullScans || driverNodesOf == null || catalog != driverCatalog) {
        driverServed.clear();
        nodes.forEach((name, n) -> {
          if (driverServes(driver, n)) {
            driverServed.add(name);
          }
        });
      } else {
        driverNodesOf.diff(nodes, (name, was, now) -> {
          if (now != null && driverServes(driver, now)) {
            driverServed.add(name);
          } else {
            driverServed.remove(name);
          }
        });
      }
      driverNodesOf = nodes;
      driverCatalog = catalog;
      driverNodes = !driverServed.isEmpty();
    }
    return driverNodes;
  }

  /** Whether the GPU Operator leaves a node to NVIDIA's DRA driver and the driver publishes devices there. */
  private static boolean driverServes(NvidiaDraDriver driver, NodeState n) {
    return !GpuOperator.runsDevicePlugin(n.node().labels()) && !driver.slices(n.node(), n.migLayout()).isEmpty();
  }

  /**
   * DynamicResources over what was written, the ResourceSlices NVIDIA's DRA driver publishes for the
   * nodes it serves now, and its DeviceClasses where none of the same name was written; the claims
   * are the cluster's, with the status recorded at bind.
   */
  private DynamicResources dynamicResources(DraObjects written) {
    // Each node's cards as its MIG manager has laid them out now.
    NvidiaDraDriver driver = driver();
    List<ResourceSlice> slices = new ArrayList<>();
    List<String> names = new ArrayList<>(api.state().nodes().keys());
    names.sort(Comparator.naturalOrder());
    for (String name : names) {
      NodeState n = api.state().nodes().get(name);
      // The GPU Operator leaves a node to the DRA driver by its label; the device plugin has the others,
      // also while it has not registered its resources yet.
      if (!GpuOperator.runsDevicePlugin(n.node().labels())) {
        slices.addAll(driver.slices(n.node(), n.migLayout()));
      }
    }
    DraObjects objects = written.withSlices(slices).withDefaultClasses(NvidiaDraDriver.deviceClasses());
    return new DynamicResources(objects, new DynamicResources.ClaimSource() {
      @Override
      public PodClaims.Resolution resolve(Pod pod) {
        ClaimTable t = api.state().dra();
        return PodClaims.resolve(pod, objects, (p, entry, template) -> t.madeFor(p.key(), entry.name())
            .map(ClaimTable.Claim::claim));
      }

      @Override
      public DraState state(ClusterSnapshot snapshot) {
        return api.state().dra().state();
      }
    });
  }

  /**
   * Binds a scheduled pod; one with claims first has them allocated and reserved for it (the plugin's
   * Reserve and PreBind write the claims' status before the binding).
   */
  private void bind(PodState p, ScheduleResult.Scheduled s) {
    if (dynamicResources != null && (!p.pod().spec().resourceClaims().isEmpty()
        || dynamicResources.extendedResources().uses(p.pod()))) {
      var snapshot = api.state().snapshot();
      if (!(dynamicResources.reserve(p.pod(), s.node(), snapshot) instanceof DeviceAllocator.Outcome.Allocated a)
          || !(dynamicResources.claims(p.pod()) instanceof PodClaims.Resolution.Claims claims)) {
        throw new IllegalStateException("DynamicResources passed " + p.key() + " on " + s.node()
            + " in Filter but cannot reserve its claims there");
      }
      List<String> keys = new ArrayList<>(claims.claims().stream().map(ResourceClaim::key).toList());
      List<Allocation> allocations = new ArrayList<>(a.allocations());
      Optional<ResourceClaim> special = snapshot.node(s.node())
          .flatMap(n -> dynamicResources.extendedClaim(p.pod(), n));
      if (special.isPresent()) {
        // PreBind creates the claim for the pod's DRA-backed extended resources with generateName
        // <pod>-extended-resources- (dynamicresources.go), owned by the pod, then records its allocation.
        String ns = p.pod().meta().namespace();
        String name;
        do {
          name = special.get().name() + "-" + PodNames.suffix(claimNames, 5);
        } while (api.state().dra().claim(ObjectMeta.key(ns, name)).isPresent());
        ResourceClaim made = new ResourceClaim(ns, name, special.get().spec());
        api.claimMade(p.key(), ClaimTable.EXTENDED_RESOURCES, made);
        allocations.replaceAll(x -> x.claimKey().equals(special.get().key())
            ? new Allocation(made.key(), x.node(), x.results()) : x);
        keys.add(made.key());
      }
      api.reserveClaims(p.key(), keys, allocations);
    }
    api.bindPod(p.key(), s.node(), s.feasibleNodes() == 1 ? "the only feasible node"
        : s.feasibleNodes() + " feasible nodes, best score " + s.score(), specInfos.get(p.pod().spec()));
  }

  /**
   * The kubelet's admission of a pod bound by name ({@link BatchPlacement#admit}): bound when its
   * node exists and has room; left Pending with no event while the node does not exist; Failed
   * with the kubelet's reason when it does not fit, as {@code schedule} reports it.
   */
  private void admit(PodState p) {
    String node = p.pod().spec().nodeName().orElseThrow();
    switch (BatchPlacement.admit(PodInfo.of(p.pod()), node, api.state().snapshot())) {
      case BatchPlacement.Outcome.Bound b -> {
        reserveRecorded(p, node);
        api.bindPod(p.key(), node, "spec.nodeName: admitted by the kubelet");
      }
      case BatchPlacement.Outcome.Rejected r -> api.podFailed(p.key(), r.reason(), r.message());
      case BatchPlacement.Outcome.Orphaned o -> { }
      case BatchPlacement.Outcome.Unclaimed x -> { }
      case BatchPlacement.Outcome.Pending x -> { }
      case BatchPlacement.Outcome.Preempted x -> { }
      case BatchPlacement.Outcome.Gated x -> { }
      case BatchPlacement.Outcome.Unprepared x -> { } // the kubelet's start decides it (Kubelet.prepareClaims)
    }
  }

  /**
   * A pod that names its node never passes the scheduler, so nothing allocates its claims; it holds
   * those whose recorded status (a dump's, the truth of "now") allocates them and reserves them for it
   * ({@link DraState#recordedFor}). The kubelet refuses to start it on any other ({@code Kubelet}).
   */
  private void reserveRecorded(PodState p, String node) {
    List<String> keys = new ArrayList<>();
    List<Allocation> allocations = new ArrayList<>();
    for (ClaimTable.Claim c : api.state().dra().of(p.pod())) {
      if (DraState.recordedFor(c.claim(), p.pod())) {
        keys.add(c.claim().key());
        Allocation.recorded(c.claim(), node).ifPresent(allocations::add);
      }
    }
    if (!keys.isEmpty()) {
      api.reserveClaims(p.key(), keys, allocations);
    }
  }

  void cycle() {
    PMap<String, Boolean> pending = api.state().pending();
    PMap<String, PodState> pods = api.state().pods();
    if (pending.isEmpty()) {
      return;
    }
    long epoch = api.capacityEpoch();
    // Like kube-scheduler's unschedulablePods (QueueingHints, pkg/scheduler/backend/queue): a pod that
    // failed at this capacity epoch waits for a later one, so while the epoch stands only the pods that
    // changed since the last cycle, or that this cycle cannot pass over, are looked at.
    boolean incremental = !fullScans && lookAt != null && epoch == lookAtEpoch;
    List<Queued> queued = new ArrayList<>();
    List<PodState> named = new ArrayList<>();
    SchedulerProfile profile = scheduler.profile();
    if (incremental) {
      podsSeen.diff(pods, (k, was, now) -> noteChanged(k, pending));
      pendingSeen.diff(pending, (k, was, now) -> noteChanged(k, pending));
      for (String k : lookAt) {
        classify(k, pods.get(k), profile, named, queued);
      }
    } else if (fullScans) {
      // kube-scheduler never sees a pod that names its node: the kubelet admits it, as in `schedule`.
      pending.forEach((k, v) -> classify(k, pods.get(k), profile, named, queued));
    } else {
      // The same pods ({@link #forEachPending}); their order does not matter, the lists are sorted below.
      forEachPending(pending, pods, (k, p) -> classify(k, p, profile, named, queued));
    }
    named.sort(Comparator.comparingLong(PodState::sequence));
    for (PodState p : named) {
      admit(p);
    }
    sortQueue(queued);
    List<Queued> queue = queued;
    boolean newlyUnschedulable = false;
    // Pods with the same spec fail alike within a cycle: bindings only take room away.
    Map<PodSpec, Failure> failedSpecs = new IdentityHashMap<>();
    Messages messages = new Messages();
    Long failedEpoch = null;
    List<Queued> attempted = queue;
    for (int i = 0; ; i++) {
      if (incremental && api.capacityEpoch() != epoch) {
        // The epoch moved (after the pod looked at last): every pod after that one in the queue's
        // order is due again, as a full scan would find it.
        List<Queued> full = new ArrayList<>();
        pending.forEach((k, v) -> classify(k, pods.get(k), profile, new ArrayList<>(), full));
        sortQueue(full);
        int from = i == 0 ? 0 : Collections.binarySearch(full, queue.get(i - 1), QUEUE_ORDER) + 1;
        queue = new ArrayList<>(queue.subList(0, i));
        queue.addAll(full.subList(from, full.size()));
        attempted = queue;
        incremental = false;
      }
      if (i >= queue.size()) {
        break;
      }
      PodState p = queue.get(i).pod();
      String key = queue.get(i).key();
      // A hard spread constraint or a required pod affinity can be met once other pods bind (the
      // minimum domain count rises, a matching pod arrives), so such a pod is retried every cycle, as
      // the queueing hints of PodTopologySpread and InterPodAffinity requeue it on pod events.
      boolean spreads = spreads(p);
      Long failed = failedAt.get(key);
      if (failed != null && failed == api.capacityEpoch() && !spreads) {
        continue;
      }
      Failure same = spreads ? null : failedSpecs.get(p.pod().spec());
      ScheduleResult r = same != null ? same.result() : schedule(p);
      if (same == null && r instanceof ScheduleResult.Unschedulable u && u.nominatedNode().isEmpty() && !spreads) {
        failedSpecs.put(p.pod().spec(), same = Failure.of(u));
      }
      switch (r) {
        case ScheduleResult.Scheduled s -> {
          messages.write();
          failedAt.remove(key);
          nominated.remove(key);
          bind(p, s);
        }
        case ScheduleResult.Unschedulable u -> {
          if (failedEpoch == null || failedEpoch != api.capacityEpoch()) {
            failedEpoch = api.capacityEpoch();
          }
          failedAt.put(key, failedEpoch);
          // Like the event correlator, a repeat that differs only in node counts is not recorded again.
          Failure f = same != null ? same : Failure.of(u);
          if (!f.reasons().equals(p.schedulingMessage().orElse(null))) {
            if (p.schedulingMessage().isEmpty()) {
              newlyUnschedulable = true;
            }
            messages.add(key, f.reasons());
            api.log(RunRecord.Kind.POD_FAILED_SCHEDULING, key, f.message());
          }
          if (u.nominatedNode().isPresent() || fullScans) {
            messages.write();
          }
          if (u.nominatedNode().isPresent()) {
            preempt(p, u.nominatedNode().get(), u.victims());
          }
        }
      }
    }
    messages.write();
    PMap<String, Boolean> pendingAfter = api.state().pending();
    if (!fullScans) {
      // What a full scan's removeIf below would drop, from two diffs that cost what changed: keys
      // kept from earlier cycles were pending at the last cycle's end (the sets are cut to the pending
      // keys after each cycle, and are empty before the first), and keys this cycle put in were
      // pending at its start (the queue is made of them).
      PMap.Change<String, Boolean> left = (k, was, now) -> {
        if (now == null) {
          failedAt.remove(k);
          nominated.remove(k);
        }
      };
      if (pendingSeen != null) {
        pendingSeen.diff(pendingAfter, left);
      }
      pending.diff(pendingAfter, left);
    } else {
      failedAt.keySet().removeIf(k -> !pendingAfter.containsKey(k));
      nominated.keySet().removeIf(k -> !pendingAfter.containsKey(k));
    }
    remember(incremental, epoch, named, attempted);
    if (newlyUnschedulable) {
      api.podsUnschedulable();
    }
  }

  /** Pending pods in the order kube-scheduler's activeQ pops them: highest priority, then oldest. */
  private static final Comparator<Queued> QUEUE_ORDER = Comparator.comparingInt((Queued q) -> -q.pod().pod().spec()
      .priority()).thenComparingLong(q -> q.pod().sequence());

  /** A pod in the queue, with its key as the pods map holds it (made once, its hash kept). */
  private record Queued(String key, PodState pod) {}

  /**
   * Sorts pods into {@link #QUEUE_ORDER}; where all have one priority (the usual queue) that is
   * creation order, sorted as primitives ({@link BySequence}) instead of a comparator call per comparison.
   */
  private void sortQueue(List<Queued> queue) {
    if (fullScans || queue.isEmpty()) {
      queue.sort(QUEUE_ORDER);
      return;
    }
    int priority = queue.getFirst().pod().pod().spec().priority();
    for (Queued q : queue) {
      if (q.pod().pod().spec().priority() != priority) {
        queue.sort(QUEUE_ORDER);
        return;
      }
    }
    BySequence.sort(queue, q -> q.pod().sequence());
  }

  /**
   * What a failure of a spec says, worked out once for every pod of the spec that fails alike in a
   * cycle: the reasons kept as the pod's message, the FailedScheduling event's text.
   */
  private record Failure(ScheduleResult.Unschedulable result, String reasons, String message) {
    static Failure of(ScheduleResult.Unschedulable u) {
      return new Failure(u, String.join("|", u.error().histogram().keySet()), u.error().message());
    }
  }

  /**
   * The scheduling messages of a run of failures, written to the image in one change
   * ({@link ApiServer#setSchedulingMessages}) before anything else changes it (a binding, a
   * preemption) and at the cycle's end: nothing between reads a pending pod's message, and the
   * pods map is rebuilt once for the run instead of once per pod.
   */
  private final class Messages {
    private List<String> keys = new ArrayList<>();
    private List<String> texts = new ArrayList<>();

    void add(String key, String text) {
      keys.add(key);
      texts.add(text);
    }

    void write() {
      if (!keys.isEmpty()) {
        api.setSchedulingMessages(keys, texts);
        keys = new ArrayList<>();
        texts = new ArrayList<>();
      }
    }
  }

  /** Whether a pod is tried every cycle: a hard spread constraint or a required pod affinity. */
  private static boolean spreads(PodState p) {
    return !p.pod().spec().topologySpreadConstraints().isEmpty() || !p.pod().spec().podAffinity().required().isEmpty();
  }

  /** Sorts a pending pod: one naming its node to the kubelet's admission, one of this scheduler to the queue. */
  private static void classify(String key, PodState p, SchedulerProfile profile, List<PodState> named,
      List<Queued> queue) {
    if (p.pod().spec().nodeName().isPresent()) {
      named.add(p);
    } else if (p.pod().spec().schedulerName().equals(profile.name()) && profile.preEnqueue(p.pod()).isEmpty()) {
      queue.add(new Queued(key, p));
    }
    // A pod of another scheduler stays Pending with no event: this one is not responsible for it.
    // Nor does a pod a PreEnqueue plugin holds back (SchedulingGates) enter the queue: never bound.
  }

  /**
   * Each pending pod with its state, in no particular order: by the pending index, a lookup each,
   * while it is much the smaller (a few pods waiting among a fleet's), else by the pods map read by
   * the index's rule (a pod isPending), one pass with no lookups (100,000 pods waiting). The index
   * holds exactly the pods that rule picks ({@code ClusterState.withPod}), so both give the same pods.
   */
  private static void forEachPending(PMap<String, Boolean> pending, PMap<String, PodState> pods,
      BiConsumer<String, PodState> action) {
    if (pending.size() * 8L < pods.size()) {
      pending.forEach((k, v) -> action.accept(k, pods.get(k)));
    } else {
      pods.forEach((k, p) -> {
        if (p.isPending()) {
          action.accept(k, p);
        }
      });
    }
  }

  /** A pod that changed or came or went since the last cycle: looked at again if it is pending. */
  private void noteChanged(String key, PMap<String, Boolean> pending) {
    if (pending.containsKey(key)) {
      lookAt.add(key);
    } else {
      lookAt.remove(key);
    }
  }

  /**
   * Keeps, for the next cycle, the pending pods it cannot pass over: every one but those that failed
   * at the epoch the cycle ends in, have no spread constraint or required affinity and are in the
   * queue (a pod named to its node, of another scheduler or held by PreEnqueue is looked at each time,
   * as PreEnqueue's verdict may change without the pod changing). A cycle whose epoch moved, or that
   * scanned everything, works the set out from every pending pod.
   */
  private void remember(boolean incremental, long epoch, List<PodState> named, List<Queued> attempted) {
    PMap<String, Boolean> pending = api.state().pending();
    PMap<String, PodState> pods = api.state().pods();
    long now = api.capacityEpoch();
    if (!incremental || now != epoch) {
      lookAt = new HashSet<>();
      // Every pending pod, as in the cycle's full scan.
      forEachPending(pending, pods, (k, p) -> {
        if (!parked(k, p, now)) {
          lookAt.add(k);
        }
      });
    } else {
      for (PodState p : named) {
        noteChanged(p.key(), pending);
      }
      for (Queued a : attempted) {
        String key = a.key();
        PodState q = pods.get(key);
        if (q != null && pending.containsKey(key) && parked(key, q, now)) {
          lookAt.remove(key);
        } else {
          noteChanged(key, pending);
        }
      }
    }
    lookAtEpoch = now;
    podsSeen = pods;
    pendingSeen = pending;
  }

  /** Whether the next cycle at epoch {@code epoch} would pass over this pending pod untouched. */
  private boolean parked(String key, PodState p, long epoch) {
    Long failed = failedAt.get(key);
    return failed != null && failed == epoch && !spreads(p) && p.pod().spec().nodeName().isEmpty()
        && p.pod().spec().schedulerName().equals(scheduler.profile().name())
        && scheduler.profile().preEnqueue(p.pod()).isEmpty();
  }

  /**
   * DefaultPreemption's outcome: the victims are deleted and exit within their grace period, and the
   * preemptor is nominated to the node and waits, first in the queue by priority, until they are
   * gone. While a nominated pod's victims are still terminating it preempts nothing more, as
   * upstream's {@code PodEligibleToPreemptOthers} holds it back.
   */
  private void preempt(PodState preemptor, String node, List<String> victims) {
    String already = nominated.get(preemptor.key());
    if (already != null && terminatingOn(already)) {
      return;
    }
    nominated.put(preemptor.key(), node);
    api.log(RunRecord.Kind.POD_NOMINATED, preemptor.key(), "nominated node " + node + ", preempting "
        + String.join(", ", victims));
    for (String victim : victims) {
      api.deletePod(victim, RunRecord.Kind.POD_PREEMPTED, "Preempted by pod " + preemptor.key() + " on node " + node);
    }
  }

  private boolean terminatingOn(String node) {
    for (PodState p : api.state().pods().values()) {
      if (p.isTerminating() && node.equals(p.node().orElse(null))) {
        return true;
      }
    }
    return false;
  }
}
