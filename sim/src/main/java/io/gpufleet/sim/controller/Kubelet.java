package io.gpufleet.sim.controller;

import io.gpufleet.autoscaler.gpu.GpuAdvertiser;
import io.gpufleet.engine.deviceplugin.ContainerDevices;
import io.gpufleet.engine.deviceplugin.Device;
import io.gpufleet.engine.deviceplugin.DeviceAllocation;
import io.gpufleet.engine.deviceplugin.GfdLabels;
import io.gpufleet.engine.deviceplugin.GpuOperator;
import io.gpufleet.engine.deviceplugin.Registration;
import io.gpufleet.engine.dra.GpuClaimPreparation;
import io.gpufleet.engine.scheduler.BatchPlacement;
import io.gpufleet.engine.scheduler.plugin.DynamicResources;
import io.gpufleet.engine.dra.NvidiaDraDriver;
import io.gpufleet.engine.mig.MigConfigState;
import io.gpufleet.engine.mig.MigManager;
import io.gpufleet.model.collect.PMap;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.node.ContainerImage;
import io.gpufleet.model.cloud.GpuSpec;
import io.gpufleet.model.deviceplugin.MigPartedConfig;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.MigInstance;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.sim.metrics.CardSpan;
import io.gpufleet.engine.deviceplugin.NodeDevices;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.sim.kernel.Event;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.state.ClaimTable;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.state.PodState;
import io.gpufleet.sim.state.WorkloadState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The kubelets: start bound pods (pulling images the node does not have, one at a time or side by
 * side as the node class's {@code serializeImagePulls} says, then starting containers and passing
 * readiness), finish Job pods, let terminating pods exit, report nodes Ready, and host the device
 * plugin, which registers {@code nvidia.com/gpu} from its own pod once that pod runs (or some time
 * after Ready, where the scenario does not run the plugin in a DaemonSet), re-registers when the
 * node's config label changes, and is disconnected when its pod goes.
 */
final class Kubelet {

  static final Taint NOT_READY = Taint.of("node.kubernetes.io/not-ready", "", TaintEffect.NO_SCHEDULE);

  private final ApiServer api;
  /** NVIDIA's DRA driver's feature gates, which decide whether a claim's sharing settings apply. */
  private final GpuClaimPreparation.FeatureGates draDriver;
  /**
   * Pods a cluster dump records Running, not yet admitted here: their containers already run, so
   * admission resumes them running and Ready at once (no pull, no start time, no probe delay), and a
   * preemption or drain in the same instant gives them their grace period as any running pod. Each
   * with its start on the run's clock, where the dump records one.
   */
  private final Map<String, Optional<Instant>> resumingRunning = new TreeMap<>();
  /** Whether the device plugin runs in pods of its own, and the workloads that answer was read from. */
  private PMap<ObjectRef, WorkloadState> pluginWorkloadsOf;
  private boolean pluginInPods;

  Kubelet(ApiServer api, GpuClaimPreparation.FeatureGates draDriver) {
    this.api = api;
    this.draDriver = draDriver;
    api.watch(ClusterEvent.PodBound.class, b -> start(api.state().pods().get(b.pod())));
  }

  // ---- pods ----

  /**
   * A pod the scenario's cluster has Running on its node: its kubelet resumes it when it admits it;
   * {@code started}, its {@code status.startTime} on the run's clock, counts against its run time.
   */
  void resumeRunning(String pod, Optional<Instant> started) {
    resumingRunning.put(pod, started);
  }

  /**
   * A node as its kubelet registers it: pull slots as its node class's kubelet settings give them,
   * GPUs as the MIG manager lays them out at boot ({@code nvidia.com/mig.config.state} on the node).
   * One the scenario starts with joins with its device plugin already registered and gets the
   * device manager's state at once, as one that registers later does in {@link #onPluginRegisters}.
   */
  NodeState joining(Node node, Optional<String> claim, Optional<String> nodePool, Optional<GpuSpec> gpus,
      boolean ready, boolean pluginRegistered) {
    Optional<String> nodeClass = nodePool.flatMap(api.state()::nodePool).map(p -> p.template().nodeClassRef().name());
    int slots = api.settings().kubelets().of(nodeClass).pullSlots().orElse(0);
    MigManager.Pass pass = api.devicePlugin().operator().migPass(node, gpus);
    Node booted = node.withLabels(pass.labelled(node.labels()));
    if (!GpuOperator.runsDevicePlugin(booted.labels()) && gpus.isPresent()) {
      return NodeState.joining(api.devicePlugin().operator().leftToDraDriver(booted, gpus, pass.layout()), claim, gpus, api.now(), ready, false, slots,
          pass.layout());
    }
    NodeState n = NodeState.joining(booted, claim, gpus, api.now(), ready, pluginRegistered, slots, pass.layout());
    if (!pluginRegistered) {
      return n;
    }
    // The node as node describe shows it: what it reports where it reports GPU resources (a dump), else
    // the plugin's advertised resources and GFD's labels; the device manager's state.
    GpuOperator operator = api.devicePlugin().operator();
    Optional<GpuInventory> inventory = operator.inventory(booted, gpus);
    if (inventory.isEmpty()) {
      Registration r = operator.registerPlugin(booted, gpus, pass.layout());
      return n.withNode(r.node()).withDevices(r.devices());
    }
    GpuOperator.Reconciled r = operator.registerObserved(node, inventory.get());
    r.disagreement().ifPresent(d -> api.log(RunRecord.Kind.SCENARIO, node.name(), d));
    return n.withNode(r.registration().node()).withDevices(r.registration().devices());
  }

  /**
   * A pod was bound here: NVIDIA's DRA driver prepares its claims (a failure leaves its containers
   * waiting, as the kubelet's NodePrepareResources does), the device manager assigns its GPUs, then
   * missing images are pulled and it starts.
   */
  private void start(PodState p) {
    if (!prepareClaims(p)) {
      return;
    }
    allocateDevices(p);
    if (resumingRunning.containsKey(p.key())) {
      run(p, true, resumingRunning.remove(p.key()));
      return;
    }
    NodeState n = api.state().nodes().get(p.node().get());
    Instant now = api.now();
    Instant ready = now;
    Map<String, Instant> pulling = new HashMap<>(n.pulling());
    // Each of the kubelet's pull slots frees at an instant; none at all means unbounded parallel pulls.
    List<Instant> slots = new ArrayList<>(n.pullSlots());
    for (String image : p.pod().spec().images()) {
      if (n.node().image(image).isPresent()) {
        continue;
      }
      Instant done = pulling.get(image);
      if (done == null) {
        Instant begin = now;
        int slot = -1;
        for (int i = 0; i < slots.size(); i++) {
          if (slot < 0 || slots.get(i).isBefore(slots.get(slot))) {
            slot = i;
          }
        }
        if (slot >= 0 && slots.get(slot).isAfter(now)) {
          begin = slots.get(slot);
        }
        done = begin.plus(api.settings().pullTime(image));
        pulling.put(image, done);
        if (slot >= 0) {
          slots.set(slot, done);
        }
      }
      if (done.isAfter(ready)) {
        ready = done;
      }
    }
    if (!pulling.equals(n.pulling())) {
      api.kubeletStatus(n.withPulls(pulling, slots));
    }
    api.schedule(ready.plus(api.settings().containerStart()), new Event.PodStarts(p.key(), p.generation()));
  }

  /**
   * The kubelet's {@code Allocate} for a pod's GPU containers (engine {@code DeviceAllocation}:
   * which card, replica or MIG slice each gets). A refusal (a shared resource asked for more than
   * once under {@code failRequestsGreaterThanOne}) is recorded; the simulated pod runs on without
   * devices rather than failing, since its controller would recreate it onto the same node at once.
   */
  private void allocateDevices(PodState p) {
    NodeState n = api.state().nodes().get(p.node().get());
    Optional<NodeDevices> devices = n.devices();
    if (devices.isEmpty()) {
      return;
    }
    switch (DeviceAllocation.allocate(devices.get(), p.pod())) {
      case DeviceAllocation.Result.Granted g -> {
        api.kubeletStatus(n.withDevices(Optional.of(g.next())));
        CardHoldings cards = new CardHoldings();
        GpuModel model = g.next().inventory().model();
        for (ContainerDevices c : g.containers()) {
          for (Device d : c.devices()) {
            double share = d.mig().map(m -> m.profile().computeShare(model)).orElse(1.0) / Math.max(1, d.replicas());
            cards.add(d.gpuIndex(), d.gpuUuid(), sharedAs(g.next(), d), share);
          }
        }
        api.metrics().cardsAssigned(p.key(), n.name(), cards.cards(), api.now());
      }
      case DeviceAllocation.Result.Refused r -> {
        api.kubeletStatus(n.withDevices(devices));
        api.log(RunRecord.Kind.DEVICE_ALLOCATION_REFUSED, p.key(), r.reason() + ": " + r.message());
      }
    }
  }

  /**
   * How the device plugin gave the card, for the run's metrics: {@code MIG 1g.10gb}, the strategy and
   * replicas of a shared device ({@code time-slicing, 4 replicas}, {@code MPS, 4 replicas}, after the
   * profile for a shared MIG device), or nothing for a whole card held alone.
   */
  static String sharedAs(NodeDevices n, Device d) {
    String shared = d.replicas() > 1 ? n.sharing().family().label() + ", " + d.replicas() + " replicas" : "";
    return onCard(d.mig(), shared, shared);
  }

  /**
   * A card's label in the run's metrics, for the device plugin's devices and DRA's alike: a MIG
   * device by its profile, {@code shared} (how it is shared, if at all) after it; a whole card {@code whole}.
   */
  private static String onCard(Optional<MigInstance> mig, String shared, String whole) {
    return mig.map(m -> "MIG " + m.profile().name() + (shared.isEmpty() ? "" : ", " + shared)).orElse(whole);
  }

  /**
   * NodePrepareResources for the pod's claims through NVIDIA's GPU kubelet plugin. The cards it is
   * given count for the run's GPU metrics as the device plugin's do. A preparation that fails is
   * recorded with the driver's error and the pod does not start: the kubelet would retry it, and with
   * the claim's configuration unchanged it fails alike.
   */
  private boolean prepareClaims(PodState p) {
    if (api.state().dra().of(p.pod()).isEmpty()) {
      return true;
    }
    String node = p.node().orElseThrow();
    NodeState n = api.state().nodes().get(node);
    MigLayout layout = n.migLayout();
    Optional<GpuModel> model = api.devicePlugin().operator().inventory(n.node(), n.gpus()).map(GpuInventory::model);
    CardHoldings cards = new CardHoldings();
    for (ClaimTable.Claim c : api.state().dra().of(p.pod())) {
      if (!c.reservedFor().contains(p.key())) {
        // The DRA manager refuses a claim not reserved for the pod (pkg/kubelet/cm/dra/manager.go
        // prepareResources), as for a pod that named its node: no scheduler allocated its claims.
        api.log(RunRecord.Kind.DEVICE_ALLOCATION_REFUSED, p.key(), BatchPlacement.Outcome.Unprepared.REASON + ": "
            + DynamicResources.notAllowed(p.pod().name(), c.claim().name()));
        return false;
      }
      if (c.allocation().isEmpty()) {
        continue;
      }
      var allocation = c.allocation().get();
      switch (GpuClaimPreparation.prepare(c.claim(), allocation, draDriver,
          NvidiaDraDriver.deviceUuids(allocation, layout))) {
        case GpuClaimPreparation.Outcome.Failed f -> {
          api.log(RunRecord.Kind.DEVICE_ALLOCATION_REFUSED, p.key(), "FailedPrepareDynamicResources: claim "
              + c.claim().name() + ": " + f.message());
          return false;
        }
        case GpuClaimPreparation.Outcome.Prepared ok -> {
          api.claimPrepared(c.claim().key(), ok.devices());
          for (var d : ok.devices()) {
            NvidiaDraDriver.placement(d.device(), layout).ifPresent(w -> {
              // A MIG device counts under its card, named by profile as the device plugin's are.
              String how = GpuClaimPreparation.describe(d.sharing());
              String shared = d.sharing() instanceof GpuClaimPreparation.Sharing.Unset ? "" : how;
              // A device the claim holds counts whole (a MIG device its slices); pods sharing the claim split it.
              double share = w.mig().flatMap(m -> model.map(m.profile()::computeShare)).orElse(1.0);
              cards.add(w.gpuIndex(), GpuInventory.uuid(node, w.gpuIndex()), onCard(w.mig(), shared, how), share);
            });
          }
        }
      }
    }
    if (!cards.cards().isEmpty()) {
      api.metrics().cardsAssigned(p.key(), node, cards.cards(), api.now());
    }
    return true;
  }

  void onStarts(Event.PodStarts e) {
    PodState p = api.state().pods().get(e.pod());
    if (p == null || p.generation() != e.generation() || p.isTerminating()) {
      return;
    }
    run(p, false, Optional.empty());
  }

  /**
   * Its containers run; one resumed from the cluster's state is Ready at once, others after the probe.
   * A Job's pod completes its run time after it started: for one resumed with a start time, what is
   * left of it (at once, when it has run its time already).
   */
  private void run(PodState p, boolean resumed, Optional<Instant> started) {
    cacheImages(p);
    api.podStarted(p.key());
    if (isPluginPod(api.state().pods().get(p.key()))
        && !(resumed && api.state().nodes().get(p.node().get()).pluginRegistered())) {
      // The plugin's process runs now: it registers over the kubelet's socket a little later. One the
      // cluster had running registered already: the node's state holds what it advertised.
      schedulePlugin(api.state().nodes().get(p.node().get()), api.devicePlugin().registrationDelay());
    }
    if (resumed) {
      api.podReady(p.key());
    } else {
      api.scheduleIn(api.settings().readiness(),
          new Event.PodBecomesReady(p.key(), api.state().pods().get(p.key()).generation()));
    }
    PodState s = api.state().pods().get(p.key());
    runFor(s).map(d -> started.map(t -> left(d, Duration.between(t, api.now()))).orElse(d))
        .ifPresent(d -> api.scheduleIn(d, new Event.PodCompletes(p.key(), s.generation())));
  }

  /** What is left of {@code runFor} after {@code ran}; none when it has run that long already. */
  static Duration left(Duration runFor, Duration ran) {
    Duration left = runFor.minus(ran);
    return left.isNegative() ? Duration.ZERO : left;
  }

  /** Images whose pull has finished join the node's cache. */
  private void cacheImages(PodState p) {
    NodeState n = api.state().nodes().get(p.node().get());
    Instant now = api.now();
    List<ContainerImage> images = new ArrayList<>(n.node().images());
    // By image name: parallel pulls finish at the same instant, and the node state's map has no order.
    Map<String, Instant> pulling = new TreeMap<>(n.pulling());
    boolean changed = false;
    for (var it = pulling.entrySet().iterator(); it.hasNext();) {
      var e = it.next();
      if (!e.getValue().isAfter(now)) {
        // Reported as the runtime reports it (a tag added to an untagged reference), with the size
        // the scenario gives it: what ImageLocality reads.
        String name = e.getKey();
        String normalized = ContainerImage.normalizedName(name);
        images.add(new ContainerImage(name.equals(normalized) ? List.of(name) : List.of(name, normalized),
            api.settings().imageSize(name)));
        it.remove();
        changed = true;
        api.log(RunRecord.Kind.IMAGE_PULLED, n.name(), e.getKey());
      }
    }
    if (changed) {
      api.kubeletImages(n.withNode(n.node().withImages(images)).withPulls(pulling, n.pullSlots()));
    }
  }

  private Optional<Duration> runFor(PodState p) {
    if (p.workload().isEmpty()) {
      return Optional.empty();
    }
    WorkloadState w = api.state().workloads().get(p.workload().get());
    if (w != null && w.workload() instanceof Workload.Job j) {
      return j.runFor();
    }
    return Optional.empty();
  }

  void onReady(Event.PodBecomesReady e) {
    PodState p = api.state().pods().get(e.pod());
    if (p == null || p.generation() != e.generation() || p.isTerminating()) {
      return;
    }
    api.podReady(p.key());
  }

  void onCompletes(Event.PodCompletes e, WorkloadControllers workloads) {
    PodState p = api.state().pods().get(e.pod());
    if (p == null || p.isTerminating() || p.phase() != PodState.Phase.RUNNING) {
      return;
    }
    workloads.jobPodSucceeded(p);
    api.removePod(p.key(), RunRecord.Kind.POD_SUCCEEDED, "completed");
  }

  void onExits(Event.PodExits e) {
    PodState p = api.state().pods().get(e.pod());
    if (p == null || p.generation() != e.generation()) {
      return;
    }
    p.node().map(api.state().nodes()::get).filter(n -> n.pluginPod().equals(Optional.of(p.key())))
        .ifPresent(this::pluginDisconnected);
    api.removePod(p.key(), RunRecord.Kind.POD_EXITED, "terminated gracefully");
  }

  // ---- nodes and the device plugin ----

  void onNodeReady(Event.NodeReady e) {
    NodeState n = api.state().nodes().get(e.node());
    if (n == null || n.ready()) {
      return;
    }
    List<Taint> taints = new ArrayList<>(n.node().taints());
    taints.removeIf(NOT_READY::sameKeyAndEffect);
    api.updateNode(n.withNode(n.node().withTaints(taints)).withReady(true));
    api.log(RunRecord.Kind.NODE_READY, n.name(), "");
    if (!api.settings().startupTaintRemoval().isNegative() && n.claim().isPresent()) {
      api.scheduleIn(api.settings().startupTaintRemoval(), new Event.StartupTaintsRemoved(n.name()));
    }
    schedulePlugin(api.state().nodes().get(n.name()), api.devicePlugin().registrationDelay());
  }

  /**
   * Schedules the plugin's (re-)registration unless it never registers on this node, or its pod is
   * modelled and does not run there yet (that pod's start schedules it).
   */
  void schedulePlugin(NodeState n, Duration delay) {
    if (n.gpus().isEmpty() || !GpuOperator.runsDevicePlugin(n.node().labels())) {
      return;
    }
    if (pluginRunsInPods() && runningPluginPod(n).isEmpty()) {
      return;
    }
    if (api.devicePlugin().neverRegistersOn().map(s -> s.matches(n.node().labels())).orElse(false)) {
      return;
    }
    api.scheduleIn(delay, new Event.DevicePluginRegisters(n.name(), n.pluginGeneration()));
  }

  void onStartupTaintsRemoved(Event.StartupTaintsRemoved e, List<Taint> startupTaints) {
    NodeState n = api.state().nodes().get(e.node());
    if (n == null) {
      return;
    }
    List<Taint> taints = new ArrayList<>(n.node().taints());
    boolean removed = taints.removeIf(t -> startupTaints.stream().anyMatch(t::sameKeyAndEffect));
    if (removed) {
      api.updateNode(n.withNode(n.node().withTaints(taints)));
      api.log(RunRecord.Kind.NODE_UNTAINTED, n.name(), "startup taints removed");
    }
  }

  /**
   * The plugin registers with the kubelet under the config the node's label picks: the node's GPU
   * resources become what it advertises, and GPU Feature Discovery's labels appear. Pods already
   * running stay, even if allocatable shrank.
   */
  void onPluginRegisters(Event.DevicePluginRegisters e) {
    NodeState n = api.state().nodes().get(e.node());
    if (n == null || e.generation() != n.pluginGeneration() || n.gpus().isEmpty() || n.migInFlight().isPresent()) {
      return;
    }
    Optional<String> pod = runningPluginPod(n);
    if (pluginRunsInPods() && pod.isEmpty()) {
      return;
    }
    // The engine's registration over the layout the MIG manager applied (plugin, GFD); the device
    // manager's checkpoint keeps what running pods hold, even devices no longer advertised.
    GpuOperator operator = api.devicePlugin().operator();
    Registration r = operator.registerPlugin(n.node(), n.gpus(), n.migLayout()).keepingAssignmentsOf(n.devices());
    api.updateNode(n.withNode(r.node()).withPlugin(true, n.pluginGeneration()).withDevices(r.devices())
        .withPluginPod(pod));
    // What the plugin logs (MPS asked of a MIG device) goes with it, and the MIG manager's reason
    // where it left the GPUs as they were.
    List<String> warnings = new ArrayList<>(r.warnings());
    if (n.node().labels().get(MigPartedConfig.STATE_LABEL).equals(Optional.of(MigConfigState.FAILED.wireName()))) {
      warnings.addAll(operator.migPass(n.node(), n.gpus()).warnings());
    }
    api.log(RunRecord.Kind.DEVICE_PLUGIN_REGISTERED, n.name(), "advertises " + r.advertised() + " (config "
        + n.node().labels().get(GpuAdvertiser.CONFIG_LABEL).orElseGet(() -> operator.configs()
            .osPlugin(n.node().labels()).map(NamedConfigs.OsPlugin::name).orElse("default")) + ")"
        + warnings.stream().map(w -> "; " + w).collect(Collectors.joining()));
  }

  /**
   * The plugin stopped (its pod went, or the MIG manager is repartitioning the GPUs): the kubelet
   * marks a disconnected plugin's devices unhealthy, so its resources drop to 0 allocatable; pods
   * that hold devices keep them.
   */
  void pluginDisconnected(NodeState n) {
    ResourceList alloc = n.node().allocatable();
    for (ResourceName name : alloc.names()) {
      if (name.isNvidiaGpuLike()) {
        alloc = alloc.with(name, Quantity.ZERO);
      }
    }
    api.updateNode(n.withNode(n.node().withResources(n.node().capacity(), alloc))
        .withPlugin(false, n.pluginGeneration() + 1).withPluginPod(Optional.empty()));
    api.log(RunRecord.Kind.DEVICE_PLUGIN_STOPPED, n.name(), "its resources are 0 allocatable until it registers again");
  }

  /** Whether the scenario runs the plugin in a DaemonSet of its own (else it runs outside the modelled pods). */
  private boolean pluginRunsInPods() {
    // Asked on every node event; the answer reads every workload, so it is kept until they change.
    PMap<ObjectRef, WorkloadState> workloads = api.state().workloads();
    if (workloads != pluginWorkloadsOf) {
      boolean[] found = new boolean[1];
      workloads.forEach((key, w) -> found[0] |= api.devicePlugin().isPluginDaemonSet(key, w.workload()));
      pluginInPods = found[0];
      pluginWorkloadsOf = workloads;
    }
    return pluginInPods;
  }

  private boolean isPluginPod(PodState p) {
    if (p.workload().isEmpty()) {
      return false;
    }
    WorkloadState w = api.state().workloads().get(p.workload().get());
    return w != null && api.devicePlugin().isPluginDaemonSet(p.workload().get(), w.workload());
  }

  /** The plugin's pod running on this node, not being deleted. */
  private Optional<String> runningPluginPod(NodeState n) {
    var info = api.state().snapshot().node(n.name());
    if (info.isEmpty()) {
      return Optional.empty();
    }
    for (var pod : info.get().pods()) {
      PodState p = api.state().pods().get(pod.key());
      if (p != null && p.phase() == PodState.Phase.RUNNING && !p.isTerminating() && isPluginPod(p)) {
        return Optional.of(p.key());
      }
    }
    return Optional.empty();
  }

  /** A config-label change: the config manager restarts the plugin, which registers again. */
  void configChanged(String node) {
    NodeState n = api.state().nodes().get(node);
    if (n == null || n.gpus().isEmpty()) {
      return;
    }
    NodeState next = n.withPlugin(n.pluginRegistered(), n.pluginGeneration() + 1);
    api.kubeletStatus(next);
    schedulePlugin(next, api.devicePlugin().registrationDelay());
  }

  /** The cards a pod was given, one entry per card and detail, its devices' shares summed (capped at the whole card). */
  private static final class CardHoldings {
    private final LinkedHashMap<String, CardSpan.Card> byCard = new LinkedHashMap<>();

    void add(int gpuIndex, String uuid, String detail, double share) {
      byCard.merge(uuid + "\u0000" + detail, new CardSpan.Card(gpuIndex, uuid, detail, Math.min(1.0, share)),
          (a, b) -> new CardSpan.Card(gpuIndex, uuid, detail, Math.min(1.0, a.share() + b.share())));
    }

    List<CardSpan.Card> cards() {
      return List.copyOf(byCard.values());
    }
  }
}
