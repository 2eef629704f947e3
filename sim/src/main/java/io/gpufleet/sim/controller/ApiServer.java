package io.gpufleet.sim.controller;

import io.gpufleet.autoscaler.action.RemovalReason;
import io.gpufleet.autoscaler.disruption.DisruptionCommand;
import io.gpufleet.autoscaler.disruption.InFlightDisruption;
import io.gpufleet.autoscaler.provisioning.ProvisioningModel;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.engine.dra.Allocation;
import io.gpufleet.engine.dra.GpuClaimPreparation;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.dra.DeviceClass;
import io.gpufleet.model.dra.DeviceTaintRule;
import io.gpufleet.model.dra.DraObject;
import io.gpufleet.model.dra.ResourceClaimTemplate;
import io.gpufleet.model.dra.ResourceSlice;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.karpenter.EC2NodeClass;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodeOverlay;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.workload.PodDisruptionBudget;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.invariant.Eviction;
import io.gpufleet.sim.kernel.Event;
import io.gpufleet.sim.kernel.Kernel;
import io.gpufleet.sim.metrics.Metrics;
import io.gpufleet.sim.metrics.MetricsRecorder;
import io.gpufleet.sim.metrics.Traffic;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.scenario.DevicePlugin;
import io.gpufleet.sim.state.ClaimTable;
import io.gpufleet.sim.state.ClusterState;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.state.PodState;
import io.gpufleet.sim.state.WorkloadState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The simulated API server: holds the current cluster image and is the only place it changes.
 * Controllers read the image through {@link #state()} and change it through the named methods here;
 * each derives the next image, records what happened, updates the metrics, notes what it touched
 * (the event's delta, for the invariants), moves the epochs whose cached answers the change can make
 * stale, and wakes the controllers that watch such changes. No field is visible outside (an
 * architecture rule holds it).
 */
final class ApiServer {

  private final Kernel kernel;
  private final SimulationSettings settings;
  private final DevicePlugin devicePlugin;
  private final RunRecord.Recorder record;
  private final MetricsRecorder metrics;
  private ClusterState state;
  private long podSequence;

  /** What the current event changed: nodes touched, pods bound and voluntary evictions. */
  private final Set<String> touchedNodes = new HashSet<>();
  private final List<String> boundThisEvent = new ArrayList<>();
  private final List<Eviction> evictionsThisEvent = new ArrayList<>();

  private final Map<Class<? extends Event>, TreeSet<Instant>> scheduled = new HashMap<>();
  /**
   * Counts changes that can make an unschedulable pod schedulable (a node added or changed, a bound
   * pod gone): kube-scheduler retries a pod that failed only after such an event (its queueing hints).
   */
  private long capacityEpoch;
  /** Counts changes to nodes' shape (added, removed, labels, taints, resources): DaemonSets care. */
  private long nodeShapeEpoch;
  /**
   * Counts changes Karpenter's disruption decisions can depend on: nodes, NodeClaims, pods binding,
   * leaving, getting Ready or being deleted, PDBs, NodePools, workloads. A poll over an unchanged count
   * and unchanged consolidatable set decides the same.
   */
  private long disruptionEpoch;
  /** Bumped on every change to a workload's pods, so derived facts (PDB status) can be cached. */
  private final Map<ObjectRef, Long> workloadVersions = new HashMap<>();
  /** The workloads whose version moved since {@link #drainBumpedWorkloads} last ran. */
  private final Set<ObjectRef> bumpedWorkloads = new HashSet<>();

  /** Whether a pod change on this node matters to Karpenter now: its NodeClaim is being drained. */
  private boolean draining(Optional<String> node) {
    if (node.isEmpty()) {
      return false;
    }
    NodeState n = state.nodes().get(node.get());
    return n != null && n.claim().map(c -> state.claims().get(c)).map(NodeClaim::isDeleting).orElse(false);
  }
  /** Controllers watching a kind of change, in subscription order. */
  private final List<Watch<?>> watches = new ArrayList<>();
  /** Who acts on {@link ClusterEvent.Hint#PROVISIONING}: the provisioner's batcher. */
  private Runnable provisioner = () -> { };

  private record Watch<T extends ClusterEvent>(Class<T> type, Consumer<? super T> action) {
    void offer(ClusterEvent e) {
      if (type.isInstance(e)) {
        action.accept(type.cast(e));
      }
    }
  }

  ApiServer(Kernel kernel, SimulationSettings settings, DevicePlugin devicePlugin, ClusterState initial) {
    this.kernel = kernel;
    this.settings = settings;
    this.devicePlugin = devicePlugin;
    this.state = initial;
    this.record = new RunRecord.Recorder(settings.recordEvents());
    this.metrics = new MetricsRecorder();
  }

  // ---- reading ----

  /** The current cluster image (immutable: a later change makes a new one). */
  ClusterState state() {
    return state;
  }

  SimulationSettings settings() {
    return settings;
  }

  DevicePlugin devicePlugin() {
    return devicePlugin;
  }

  /** The run's metrics, which controllers feed with what they alone know (cards, launches, evictions). */
  MetricsRecorder metrics() {
    return metrics;
  }

  long capacityEpoch() {
    return capacityEpoch;
  }

  long nodeShapeEpoch() {
    return nodeShapeEpoch;
  }

  long disruptionEpoch() {
    return disruptionEpoch;
  }

  long workloadVersion(ObjectRef workload) {
    return workloadVersions.getOrDefault(workload, 0L);
  }

  /** Hands over, then forgets, the workloads whose version moved since the last call: the workload controllers' due list. */
  void drainBumpedWorkloads(Consumer<ObjectRef> action) {
    if (!bumpedWorkloads.isEmpty()) {
      bumpedWorkloads.forEach(action);
      bumpedWorkloads.clear();
    }
  }

  int recordSize() {
    return record.size();
  }

  /** The run record as far as it goes, for counting what happened while the run goes on. */
  RunRecord.Recorder recorder() {
    return record;
  }

  RunRecord buildRecord() {
    return record.build();
  }

  /** Nodes the current event touched (read-only; cleared by {@link #startEvent}). */
  Set<String> touchedNodes() {
    return Collections.unmodifiableSet(touchedNodes);
  }

  List<String> boundThisEvent() {
    return Collections.unmodifiableList(boundThisEvent);
  }

  List<Eviction> evictionsThisEvent() {
    return Collections.unmodifiableList(evictionsThisEvent);
  }

  /** Forgets the last event's delta: what follows belongs to the next one. */
  void startEvent() {
    touchedNodes.clear();
    boundThisEvent.clear();
    evictionsThisEvent.clear();
  }

  // ---- cluster events ----

  /** A controller watches one kind of change: it hears of each, after the image changed. */
  <T extends ClusterEvent> void watch(Class<T> type, Consumer<? super T> action) {
    watches.add(new Watch<>(type, action));
  }

  /** Who opens the provisioner's batch window when pods may need capacity. */
  void onProvisioning(Runnable batcher) {
    this.provisioner = batcher;
  }

  /**
   * Publishes a change: the epochs its hints name move, the controllers watching it hear of it, then
   * the controllers its hints name are woken, in the hints' order.
   */
  private void publish(ClusterEvent e) {
    List<ClusterEvent.Hint> hints = e.hints();
    // Indexed, not iterated: a batch of 100,000 pods publishes 100,000 events.
    for (int i = 0; i < hints.size(); i++) {
      ClusterEvent.Hint h = hints.get(i);
      switch (h) {
        case CAPACITY -> capacityEpoch++;
        case NODE_SHAPE -> nodeShapeEpoch++;
        case DISRUPTION -> disruptionEpoch++;
        case SCHEDULE, WORKLOADS, KARPENTER, PROVISIONING -> { }
      }
    }
    for (int i = 0; i < watches.size(); i++) {
      watches.get(i).offer(e);
    }
    for (int i = 0; i < hints.size(); i++) {
      switch (hints.get(i)) {
        case CAPACITY, NODE_SHAPE, DISRUPTION -> { }
        case SCHEDULE -> requestSchedule();
        case WORKLOADS -> requestWorkloadSync();
        case KARPENTER -> requestKarpenter();
        case PROVISIONING -> provisioner.run();
      }
    }
  }

  /** kube-scheduler found pods that fit nowhere: the provisioner should look. */
  void podsUnschedulable() {
    publish(new ClusterEvent.PodsUnschedulable());
  }

  /** The cloud took a claim's instance back: whoever cleans up after lost instances hears of it. */
  void instanceTerminated(NodeClaim c, String why) {
    publish(new ClusterEvent.InstanceTerminated(c, why));
  }

  Instant now() {
    return kernel.now();
  }

  void log(RunRecord.Kind kind, String subject, String message) {
    record.add(now(), kind, subject, message);
  }

  /** Schedules a kernel event (a timer of some controller, an instance booting, a pod exiting). */
  void schedule(Instant at, Event e) {
    kernel.schedule(at, e);
  }

  void scheduleIn(Duration after, Event e) {
    kernel.schedule(now().plus(after), e);
  }

  // ---- coalesced controller wake-ups ----

  /** Schedules a singleton controller event at {@code at} unless one is already due then. */
  void wake(Event e, Instant at) {
    TreeSet<Instant> times = scheduled.computeIfAbsent(e.getClass(), k -> new TreeSet<>());
    if (at.isBefore(now())) {
      at = now();
    }
    if (times.contains(at)) {
      return;
    }
    times.add(at);
    kernel.schedule(at, e);
  }

  void wakeNow(Event e) {
    wake(e, now());
  }

  /** Called when a singleton event runs, so the next request schedules a new one. */
  void woke(Event e) {
    TreeSet<Instant> times = scheduled.get(e.getClass());
    if (times != null) {
      times.remove(now());
    }
  }

  void requestSchedule() {
    wakeNow(new Event.ScheduleCycle());
  }

  void requestWorkloadSync() {
    wakeNow(new Event.WorkloadSync());
  }

  void requestKarpenter() {
    wakeNow(new Event.KarpenterReconcile());
  }

  // ---- pods ----

  PodState createPod(Pod pod, Optional<ObjectRef> workload) {
    PodState s = created(pod, workload);
    state = state.withPod(s);
    podCreated(s, workload, state.pending().size());
    return s;
  }

  /**
   * As {@link #createPod} of each in turn, for new pods of one workload that its controller made
   * together: the image takes them in one change ({@link ClusterState#withNewPods}), then each pod's
   * record, metrics and event follow in order, as {@code createPod} has them. A watcher of PodCreated
   * thus hears of each with the whole batch in the image already; the caller sends only pods whose
   * creation no watcher acts on (the resource claim controller acts on pods with claims), so none
   * can tell.
   */
  void createPods(List<Pod> pods, Optional<ObjectRef> workload) {
    List<PodState> made = new ArrayList<>(pods.size());
    for (Pod pod : pods) {
      made.add(created(pod, workload));
    }
    state = state.withNewPods(made);
    // Pending as each creation in turn left it: the batch's pods are all new and pending.
    int pendingAfter = state.pending().size();
    for (int i = 0; i < made.size(); i++) {
      podCreated(made.get(i), workload, pendingAfter - (made.size() - 1 - i));
    }
  }

  private PodState created(Pod pod, Optional<ObjectRef> workload) {
    return new PodState(pod, podSequence++, workload, PodState.Phase.PENDING, Optional.empty(), now(),
        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), 0);
  }

  /** What follows a pod's creation, once the image holds it, with {@code pending} pods pending then. */
  private void podCreated(PodState s, Optional<ObjectRef> workload, int pending) {
    String key = s.key();
    bumpWorkload(workload);
    workload.ifPresent(this::creator);
    metrics.podCreated(key, workload.isPresent() ? creatorNamed : Optional.empty(), now());
    log(RunRecord.Kind.POD_CREATED, key, workload.isPresent() ? createdBy : "");
    pendingGauge(pending);
    publish(new ClusterEvent.PodCreated(s.pod()));
  }

  /** The workload {@link #creator} named last, its name and the PodCreated message of its pods. */
  private ObjectRef creator;
  private Optional<String> creatorNamed;
  private String createdBy;

  /** Names the workload that creates pods: once per run of its pods, not once per pod (a batch is 100,000). */
  private void creator(ObjectRef w) {
    if (!w.equals(creator)) {
      creator = w;
      creatorNamed = Optional.of(w.toString());
      createdBy = "by " + creatorNamed.get();
    }
  }

  /**
   * A pending pod's spec replaced, as an update of a field the API server lets change on a pending pod
   * (scheduling gates removed, node selector added while gated: KEP-3838).
   */
  void updatePendingPod(String key, Pod updated) {
    PodState p = state.pods().get(key);
    if (p == null || !p.isPending()) {
      return;
    }
    state = state.withPod(p.withPod(updated));
    publish(new ClusterEvent.PodUpdated(key));
  }

  // ---- resource.k8s.io ----

  /**
   * A DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice or DeviceTaintRule the scenario
   * applies; a taint without {@code timeAdded} gets the time now, as the API server sets it on create.
   */
  void putDraObject(DraObject o) {
    DraObject stamped = switch (o) {
      case DeviceTaintRule r -> r.withTaint(r.taint().addedAt(now()));
      case ResourceSlice s -> new ResourceSlice(s.name(), s.driver(), s.pool(), s.nodeName(), s.devices().stream()
          .map(d -> d.withTaints(d.taints().stream().map(t -> t.addedAt(now())).toList())).toList());
      case DeviceClass c -> c;
      case ResourceClaim c -> c;
      case ResourceClaimTemplate t -> t;
    };
    state = state.withDra(state.dra().withWritten(stamped));
  }

  /** Deletes the DeviceTaintRule {@code name}; false when there is none. */
  boolean deleteDeviceTaintRule(String name) {
    if (state.dra().written().taintRules().stream().noneMatch(r -> r.name().equals(name))) {
      return false;
    }
    state = state.withDra(state.dra().withoutTaintRule(name));
    // The devices it tainted are free for pods again: pending pods get another scheduling attempt.
    publish(new ClusterEvent.DevicesFreed(name));
    return true;
  }

  /** A pod with claims exists: the scheduler runs DynamicResources from now on. */
  void claimsUsed() {
    if (!state.dra().used()) {
      state = state.withDra(state.dra().withUse());
    }
  }

  /** The resource claim controller made {@code claim} for the pod's template entry {@code podClaimName}. */
  void claimMade(String podKey, String podClaimName, ResourceClaim claim) {
    state = state.withDra(state.dra().withMade(podKey, podClaimName, claim));
  }

  /**
   * The scheduler's Reserve and PreBind for a pod with claims: the claims it allocated now get
   * {@code status.allocation}, and every claim of the pod lists it in {@code status.reservedFor}.
   */
  void reserveClaims(String podKey, List<String> claimKeys, List<Allocation> allocated) {
    ClaimTable t = state.dra();
    for (String claim : claimKeys) {
      Optional<Allocation> a = allocated.stream().filter(x -> x.claimKey().equals(claim))
          .findFirst();
      t = t.reserved(claim, a, podKey);
    }
    state = state.withDra(t);
  }

  /** NVIDIA's kubelet plugin prepared the claim's devices. */
  void claimPrepared(String claimKey, List<GpuClaimPreparation.PreparedDevice> devices) {
    state = state.withDra(state.dra().prepared(claimKey, devices));
  }

  /** Binds a pod; {@code why} (the scheduler's view of the choice) joins the run record's entry. */
  void bindPod(String key, String nodeName, String why) {
    bindPod(key, nodeName, why, null);
  }

  /**
   * As {@link #bindPod(String, String, String)}, the pod's requests taken from {@code sameSpec}, the
   * scheduler's info of a pod with the very same spec object, where it is one ({@link PodInfo#of(io.gpufleet.model.pod.Pod, PodInfo)}).
   */
  void bindPod(String key, String nodeName, String why, PodInfo sameSpec) {
    PodState p = state.pods().get(key);
    // The kubelet sets status.startTime when it admits the pod; preemption reads it.
    state = state.withSnapshot(state.snapshot().bind(PodInfo.of(p.pod(), sameSpec).startedAt(now()), nodeName));
    state = state.withPod(p.bound(nodeName, now()));
    bumpWorkload(p.workload());
    touchNode(nodeName, true);
    boundThisEvent.add(key);
    metrics.podScheduled(key, now());
    log(RunRecord.Kind.POD_SCHEDULED, key, "bound to " + nodeName + (why.isEmpty() ? "" : " (" + why + ")"));
    pendingGauge();
    nodeGpuMetrics(nodeName);
    publish(new ClusterEvent.PodBound(key, nodeName));
  }

  void podStarted(String key) {
    PodState p = state.pods().get(key);
    state = state.withPod(p.started());
    bumpWorkload(p.workload());
    log(RunRecord.Kind.POD_STARTED, key, "");
  }

  void podReady(String key) {
    PodState p = state.pods().get(key);
    state = state.withPod(p.readyAt(now()));
    bumpWorkload(p.workload());
    log(RunRecord.Kind.POD_READY, key, "on " + p.node().orElse("?"));
    serviceChanged(p.workload());
    publish(new ClusterEvent.PodReady(key));
  }

  /**
   * Starts deleting a pod: an unbound pod goes at once; a bound one stops serving, gets SIGTERM and
   * exits when its shutdown is done or its grace period ends, whichever comes first ({@link PodShutdown}).
   */
  void deletePod(String key, RunRecord.Kind kind, String why) {
    deletePod(key, kind, why, Optional.empty());
  }

  /**
   * As {@link #deletePod(String, RunRecord.Kind, String)}, with the delete request's grace period
   * when it sets one ({@code DeleteOptions.gracePeriodSeconds}), which replaces the pod's own.
   */
  void deletePod(String key, RunRecord.Kind kind, String why, Optional<Duration> gracePeriod) {
    PodState p = state.pods().get(key);
    if (p == null || p.isTerminating()) {
      return;
    }
    if (p.node().isEmpty()) {
      log(kind, key, why);
      removePod(key, RunRecord.Kind.POD_DELETED, "never bound");
      return;
    }
    state = state.withPod(p.deleting(now()));
    bumpWorkload(p.workload());
    log(kind, key, why);
    touchNode(p.node().get(), true);
    serviceChanged(p.workload());
    Duration exit = PodShutdown.of(p, p.workload().map(metrics::traffic).orElse(Traffic.NONE), gracePeriod);
    PodState now = state.pods().get(key);
    kernel.schedule(now().plus(exit), new Event.PodExits(key, now.generation()));
    publish(new ClusterEvent.PodDeleting(key, draining(p.node())));
  }

  /** A pod is gone: it exited, completed, or died with its node. */
  void removePod(String key, RunRecord.Kind kind, String why) {
    PodState p = state.pods().get(key);
    if (p == null) {
      return;
    }
    if (kind == RunRecord.Kind.POD_KILLED && p.workload().isPresent()) {
      // In-flight requests die with a pod that was serving or still draining.
      Traffic t = metrics.traffic(p.workload().get());
      if (p.ready().isPresent()) {
        int ready = Math.max(1, readyCount(p.workload().get()) + (p.isReady() ? 0 : 1));
        metrics.podKilled(p.workload().get(), t.inFlightPerPod(ready));
      }
    }
    if (p.node().isPresent()) {
      // The device manager frees what the pod's containers held.
      NodeState n = state.nodes().get(p.node().get());
      if (n != null && n.devices().isPresent()) {
        state = state.withNode(n.withDevices(Optional.of(n.devices().get().withoutPod(key))));
      }
      metrics.cardsReleased(key, now());
    }
    if (!state.dra().isEmpty()) {
      // The resource claim controller takes the pod out of its claims' reservedFor (a claim nobody
      // reserves is deallocated), and the garbage collector deletes the claims made for it.
      state = state.withDra(state.dra().withoutPod(key));
    }
    boolean freed = p.node().isPresent() && state.snapshot().node(p.node().get()).isPresent();
    if (freed) {
      state = state.withSnapshot(state.snapshot().unbind(key, p.node().get()));
      touchNode(p.node().get(), true);
      nodeGpuMetrics(p.node().get());
    }
    bumpWorkload(p.workload());
    state = state.withoutPod(key);
    log(kind, key, why);
    pendingGauge();
    serviceChanged(p.workload());
    publish(new ClusterEvent.PodRemoved(key, freed, draining(p.node())));
  }

  /**
   * The kubelet refused a pod bound by name (kubelet admission): the pod is Failed with the kubelet's
   * reason and message, as {@code pkg/kubelet/kubelet.go} rejectPod records them, and holds nothing.
   */
  void podFailed(String key, String reason, String message) {
    PodState p = state.pods().get(key);
    state = state.withPod(p.failed(reason));
    bumpWorkload(p.workload());
    metrics.podFailed(key);
    log(RunRecord.Kind.POD_FAILED, key, reason + ": " + message);
    pendingGauge();
    publish(new ClusterEvent.PodFailed(key));
  }

  /** Sets each pending pod's scheduling message (at the same index), in one change of the image. */
  void setSchedulingMessages(List<String> keys, List<String> messages) {
    state = state.withSchedulingMessages(keys, messages);
  }

  private void pendingGauge() {
    pendingGauge(state.pending().size());
  }

  private void pendingGauge(int pending) {
    metrics.gauge(Metrics.PENDING_PODS, now(), pending);
  }

  // ---- workloads and services ----

  private int readyCount(ObjectRef workload) {
    return state.readyCount(workload);
  }

  private void bumpWorkload(Optional<ObjectRef> workload) {
    workload.ifPresent(w -> {
      workloadVersions.merge(w, 1L, Long::sum);
      bumpedWorkloads.add(w);
    });
  }

  static int desired(Workload w) {
    return w.desiredPods();
  }

  private void serviceChanged(Optional<ObjectRef> workload) {
    if (workload.isEmpty()) {
      return;
    }
    WorkloadState w = state.workloads().get(workload.get());
    if (w == null) {
      return;
    }
    metrics.serviceReady(workload.get(), readyCount(workload.get()), desired(w.workload()), now());
  }

  // ---- nodes ----

  /** Notes a node as changed by this event; {@code podEvent} also bumps Karpenter's last-pod-event time. */
  private void touchNode(String name, boolean podEvent) {
    touchedNodes.add(name);
    if (podEvent) {
      NodeState n = state.nodes().get(name);
      if (n != null) {
        state = state.withNode(n.withLastPodEvent(now()));
      }
    }
  }

  void addNode(NodeState n) {
    putNode(n);
  }

  /** Replaces a node's object (labels, taints, allocatable), keeping its pods. */
  void updateNode(NodeState n) {
    NodeState old = state.nodes().get(n.name());
    boolean shrunk = old != null && shrinks(old.node().allocatable(), n.node().allocatable(), n.name());
    putNode(shrunk ? n.withAllocatableShrunk(true) : n);
  }

  /** A node joined or changed: the scheduler's image, the GPU metrics and every controller hear of it. */
  private void putNode(NodeState n) {
    state = state.withNode(n);
    state = state.withSnapshot(state.snapshot().withNode(n.node()));
    touchedNodes.add(n.name());
    nodeGpuMetrics(n.name());
    publish(new ClusterEvent.NodeChanged(n.name()));
  }

  /** True when some resource's allocatable fell below what the node's pods request. */
  private boolean shrinks(ResourceList before, ResourceList after, String node) {
    var info = state.snapshot().node(node);
    if (info.isEmpty()) {
      return false;
    }
    for (var e : before.quantities().entrySet()) {
      Quantity now = after.getOrZero(e.getKey());
      if (now.compareTo(e.getValue()) < 0) {
        long requested = info.get().requested().get(e.getKey().name());
        long alloc = e.getKey().equals(ResourceName.CPU) ? now.milliValue() : now.value();
        if (requested > alloc) {
          return true;
        }
      }
    }
    return false;
  }

  /** The instance is gone: every pod on it dies, the Node object is deleted. */
  void removeNode(String name, String why) {
    NodeState n = state.nodes().get(name);
    if (n == null) {
      return;
    }
    var info = state.snapshot().node(name);
    if (info.isPresent()) {
      for (PodInfo p : info.get().pods()) {
        removePod(p.key(), RunRecord.Kind.POD_KILLED, "node " + name + " went away");
      }
    }
    state = state.withoutNode(name);
    state = state.withSnapshot(state.snapshot().removeNode(name));
    metrics.nodeGone(name, now());
    touchedNodes.add(name);
    log(RunRecord.Kind.NODE_TERMINATED, name, why);
    publish(new ClusterEvent.NodeRemoved(name));
  }

  /** Physical GPUs and the share pods hold, for the GPU-hours metrics. */
  private void nodeGpuMetrics(String name) {
    NodeState n = state.nodes().get(name);
    if (n == null) {
      return;
    }
    double physical = n.gpus().map(g -> (double) g.count()).orElse(0.0);
    if (physical == 0) {
      metrics.nodeGpus(name, n.claim(), 0, 0, now());
      return;
    }
    var info = state.snapshot().node(name).orElseThrow();
    double fraction = 0;
    for (var e : n.node().allocatable().quantities().entrySet()) {
      if (!e.getKey().isNvidiaGpuLike()) {
        continue;
      }
      long advertised = e.getValue().value();
      long used = info.requested().scalar(e.getKey().name());
      if (advertised > 0) {
        fraction += (double) Math.min(used, advertised) / advertised;
      }
    }
    // Cards NVIDIA's DRA driver handed out here count whole, however many pods share their claim.
    fraction += state.dra().allocatedDevices(name) / physical;
    metrics.nodeGpus(name, n.claim(), physical, physical * Math.min(1.0, fraction), now());
  }

  // ---- NodeClaims ----

  void putClaim(NodeClaim c) {
    state = state.withClaim(c);
    c.nodeName().ifPresent(touchedNodes::add);
    publish(new ClusterEvent.ClaimChanged(c.name()));
  }

  void removeClaim(String name) {
    NodeClaim c = state.claims().get(name);
    if (c == null) {
      return;
    }
    state = state.withoutClaim(name);
    metrics.claimGone(name, now());
    publish(new ClusterEvent.ClaimRemoved(name));
  }

  /** Marks a launched claim's instance: the claim changes as any, and the cost meter starts. */
  void claimLaunched(NodeClaim launched) {
    putClaim(launched);
    metrics.claimLaunched(launched.name(), launched.nodePool(), launched.instanceType().name() + " "
        + launched.offering().capacityType().wireName(), billedPrice(launched), now());
  }

  /**
   * What EC2 bills for the claim: the catalogue's price of its offering. A NodeOverlay's price steers
   * Karpenter's choices (the claim carries it) but does not change the bill. An instance in a capacity
   * reservation is billed at the reservation's price (stated, else the type's on-demand price), not at
   * the near-zero price its offering carries for Karpenter's choices.
   */
  double billedPrice(NodeClaim c) {
    if (c.offering().reservation().isPresent()) {
      double onDemand = state.catalog().find(c.instanceType().name()).map(InstanceType::onDemandPrice)
          .orElse(c.instanceType().onDemandPrice());
      return c.offering().reservation().get().billedPrice(onDemand);
    }
    return state.catalog().find(c.instanceType().name()).flatMap(t -> t.offerings().stream()
        .filter(o -> o.capacityType() == c.offering().capacityType() && o.zone().equals(c.offering().zone()))
        .findFirst()).map(Offering::pricePerHour).orElse(c.pricePerHour());
  }

  /** The claim's instance type as the catalogue has it, without any NodeOverlay's capacity. */
  InstanceType realType(NodeClaim c) {
    InstanceType listed = state.catalog().find(c.instanceType().name()).orElse(c.instanceType());
    return state.nodePool(c.nodePool()).map(p -> ProvisioningModel.nodeClassOf(p,
        nodeClasses).apply(listed)).orElse(listed);
  }

  /** Karpenter starts deleting a claim: its finalizer drains the node, the reason is kept for the record. */
  void claimDeleting(NodeClaim c, RemovalReason reason) {
    putClaim(c.withDeletionRequested(now()));
    state = state.withRemovalReason(c.name(), reason);
    // The method of the executing command that takes this claim, if a command does.
    Optional<String> method = Optional.empty();
    for (InFlightDisruption d : state.executing().values()) {
      if (d.command().candidates().contains(c.name())) {
        method = Optional.of(d.command().method().wireName());
      }
    }
    metrics.disruption(reason.text(), method);
  }

  // ---- node status the kubelet keeps for itself ----

  /**
   * Status only the kubelet acts on: image pulls in flight and images cached, the device manager's
   * assignments, the plugin's restart generation. The scheduler's image, DaemonSets and Karpenter read
   * none of it, so no epoch moves and nobody is woken.
   */
  void kubeletStatus(NodeState next) {
    state = state.withNode(next);
  }

  /**
   * The images a node's kubelet reports it holds (status.images): the scheduler's image takes them
   * for ImageLocality; nothing else reads them, so no controller is woken.
   */
  void kubeletImages(NodeState next) {
    state = state.withNode(next);
    state = state.withSnapshot(state.snapshot().withNode(next.node()));
  }

  // ---- Karpenter's own objects ----

  /** An offering failed to launch (ICE): unavailable until {@code until}, which disruption decisions read. */
  void offeringUnavailable(String instanceType, CapacityType capacityType, String zone,
      Instant until) {
    state = state.withOfferings(state.offerings().prune(now()).markUnavailable(instanceType, capacityType, zone,
        until));
    publish(new ClusterEvent.OfferingUnavailable(instanceType));
  }

  /** A disruption command waits out its validation delay; polls wait for it. */
  void proposeDisruption(DisruptionCommand c) {
    state = state.withProposed(state.proposed().put(c.id(), c));
  }

  /** A validated command runs: its candidates are tainted and replacements launched by the caller. */
  void executeDisruption(DisruptionCommand c) {
    state = state.withProposed(state.proposed().remove(c.id())).withExecuting(state.executing().put(c.id(),
        new InFlightDisruption(c, now())));
  }

  /** A command is given up: its candidates are disruptable again, so Karpenter looks again. */
  void abandonDisruption(String id) {
    state = state.withProposed(state.proposed().remove(id)).withExecuting(state.executing().remove(id));
    publish(new ClusterEvent.DisruptionAbandoned(id));
  }

  /** An executed command whose candidates are all deleting is done. */
  void retireDisruption(String id) {
    state = state.withExecuting(state.executing().remove(id));
  }

  /** The facts of a voluntary eviction, for the PDB invariant. */
  void evicting(Eviction e) {
    evictionsThisEvent.add(e);
  }

  // ---- what the scenario applies ----

  /** A scenario step or applied manifest may change anything a disruption depends on. */
  void scenarioChanges() {
    publish(new ClusterEvent.PolicyChanged("scenario"));
  }

  void putPdb(PodDisruptionBudget b) {
    state = state.withPdb(b);
    publish(new ClusterEvent.PolicyChanged(b.meta().key()));
  }

  void removePdb(String key) {
    state = state.withoutPdb(key);
    publish(new ClusterEvent.PolicyChanged(key));
  }

  /** Creates or replaces a NodePool (the list stays sorted by name). */
  /** The NodeOverlays applied so far, by name (a later one of the same name replaces it). */
  private final TreeMap<String, NodeOverlay> overlays = new TreeMap<>();
  private List<NodeOverlay> overlayList = List.of();

  void applyNodeOverlay(NodeOverlay o) {
    overlays.put(o.name(), o);
    overlayList = List.copyOf(overlays.values());
  }

  /** The EC2NodeClasses applied so far, by name; the same map object until one is applied. */
  private Map<String, EC2NodeClass> nodeClasses = Map.of();

  void applyNodeClass(EC2NodeClass c) {
    TreeMap<String, EC2NodeClass> m = new TreeMap<>(nodeClasses);
    m.put(c.name(), c);
    nodeClasses = Collections.unmodifiableMap(m);
  }

  Map<String, EC2NodeClass> nodeClasses() {
    return nodeClasses;
  }

  /** The NodeOverlays in the cluster; the same list object until one is applied. */
  List<NodeOverlay> nodeOverlays() {
    return overlayList;
  }

  void applyNodePool(NodePool p) {
    List<NodePool> pools = new ArrayList<>();
    for (var existing : state.nodePools()) {
      if (!existing.name().equals(p.name())) {
        pools.add(existing);
      }
    }
    pools.add(p);
    pools.sort(Comparator.comparing(NodePool::name));
    state = state.withNodePools(pools);
    publish(new ClusterEvent.NodePoolApplied(p.name()));
  }

  /** Deletes a NodePool; its NodeClaims are the caller's to delete. */
  void deleteNodePool(String name) {
    state = state.withNodePools(state.nodePools().stream().filter(p -> !p.name().equals(name)).toList());
    publish(new ClusterEvent.PolicyChanged("nodepool/" + name));
  }

  /** A workload created, scaled or updated: its service's readiness is re-measured, its controller syncs. */
  void putWorkload(WorkloadState w) {
    state = state.withWorkload(w);
    serviceChanged(Optional.of(w.key()));
    publish(new ClusterEvent.WorkloadChanged(w.key()));
  }

  /** A workload's own counters (a Job's completions): only its controller reads them. */
  void workloadStatus(WorkloadState w) {
    state = state.withWorkload(w);
  }

  void removeWorkload(ObjectRef key) {
    state = state.withoutWorkload(key);
    publish(new ClusterEvent.PolicyChanged(key.toString()));
  }

  /** Karpenter's view of one node (see {@link StateNode}). */
  static boolean isDaemon(Pod p) {
    return StateNode.isDaemon(p);
  }
}
