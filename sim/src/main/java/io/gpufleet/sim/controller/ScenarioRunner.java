package io.gpufleet.sim.controller;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.action.Action;
import io.gpufleet.autoscaler.action.RemovalReason;
import io.gpufleet.autoscaler.gpu.GpuAdvertiser;
import io.gpufleet.autoscaler.provisioning.NodePoolTemplate;
import io.gpufleet.autoscaler.provisioning.ProvisioningModel;
import io.gpufleet.engine.deviceplugin.GpuOperator;
import io.gpufleet.engine.deviceplugin.NodeGpus;
import io.gpufleet.engine.workload.Ownership;
import io.gpufleet.engine.workload.PodFactory;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.GpuSpec;
import io.gpufleet.model.cloud.InstanceLabels;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.deviceplugin.MigPartedConfig;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodeClassRef;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.time.KubeDuration;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.sim.Checkpoint;
import io.gpufleet.sim.kernel.Event;
import io.gpufleet.sim.metrics.Traffic;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.scenario.ClusterObject;
import io.gpufleet.sim.scenario.ConditionText;
import io.gpufleet.sim.scenario.ExpectationOutcome;
import io.gpufleet.sim.scenario.InterruptionNotice;
import io.gpufleet.sim.scenario.NodeRef;
import io.gpufleet.sim.scenario.Scenario;
import io.gpufleet.sim.scenario.ScenarioAction;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.state.PodState;
import io.gpufleet.sim.state.WorkloadState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Plays a scenario's timeline: applies objects, labels nodes, scales and deletes, sends spot
 * interruptions, waits, and checks expectations, recording each outcome.
 */
final class ScenarioRunner {

  private final ApiServer api;
  private final Kubelet kubelet;
  private final MigManagerDaemon migManager;
  private final CloudProvider cloud;
  private final KarpenterLoop karpenter;
  private final KueueController kueue;
  private final List<ScenarioAction> timeline;
  private final List<ExpectationOutcome> outcomes = new ArrayList<>();
  private final List<Checkpoint> checkpoints = new ArrayList<>();
  private final RunFacts facts;
  /** Throughout/never expectations still being checked, in the order they started. */
  private final List<OpenWatch> watches = new ArrayList<>();
  private int next;
  private ScenarioAction.WaitUntil waiting;
  private int waitingStep = -1;
  private boolean done;

  ScenarioRunner(ApiServer api, Kubelet kubelet, MigManagerDaemon migManager, CloudProvider cloud,
      KarpenterLoop karpenter, KueueController kueue, Scenario scenario) {
    this.api = api;
    this.kubelet = kubelet;
    this.migManager = migManager;
    this.cloud = cloud;
    this.karpenter = karpenter;
    this.kueue = kueue;
    this.timeline = scenario.timeline();
    this.facts = new RunFacts(api);
  }

  /** A throughout/never expectation being checked: its timeline index, when it started and its end, if any. */
  private record OpenWatch(int step, ScenarioAction.Watch watch, Instant since, Optional<Instant> until) {}

  List<ExpectationOutcome> outcomes() {
    return outcomes;
  }

  List<Checkpoint> checkpoints() {
    return checkpoints;
  }

  boolean done() {
    return done;
  }

  int step() {
    return next;
  }

  int steps() {
    return timeline.size();
  }

  /** Runs actions until one waits or the timeline ends. */
  void advance() {
    api.scenarioChanges();
    while (next < timeline.size()) {
      int index = next++;
      ScenarioAction a = timeline.get(index);
      switch (a) {
        case ScenarioAction.Apply ap -> apply(ap.objects());
        case ScenarioAction.LabelNode l -> label(l.node(), l.key(), Optional.of(l.value()));
        case ScenarioAction.UnlabelNode u -> label(u.node(), u.key(), Optional.empty());
        case ScenarioAction.Scale s -> scale(s.workload(), s.replicas());
        case ScenarioAction.Delete d -> delete(d.kind(), d.name());
        case ScenarioAction.Interrupt i -> interrupt(index, i);
        case ScenarioAction.InsufficientCapacity ice -> {
          cloud.removeCapacity(ice.instanceType(), ice.zone(), ice.capacityType(), ice.window());
          api.log(RunRecord.Kind.SCENARIO, ice.instanceType(), "no EC2 capacity"
              + ice.capacityType().map(t -> " for " + t.wireName()).orElse("")
              + ice.zone().map(z -> " in " + z).orElse("")
              + ice.window().map(d -> " for " + KubeDuration.format(d)).orElse(" from now on"));
        }
        case ScenarioAction.ExpireReservation x -> {
          if (!cloud.hasReservation(x.id())) {
            outcome(index, "expireReservation " + x.id(), false, "EC2 has no capacity reservation " + x.id());
          } else {
            cloud.endReservation(x.id(), api.now().plus(x.in()));
            api.log(RunRecord.Kind.SCENARIO, x.id(), "capacity reservation ends "
                + (x.in().isZero() ? "now" : "in " + KubeDuration.format(x.in())));
          }
        }
        case ScenarioAction.Watch w -> {
          OpenWatch o = new OpenWatch(index, w, api.now(), w.window().map(api.now()::plus));
          watches.add(o);
          check(o);
        }
        case ScenarioAction.Wait w -> {
          api.scheduleIn(w.duration(), new Event.ScenarioStep());
          return;
        }
        case ScenarioAction.WaitUntil w -> {
          Conditions.Outcome o = Conditions.evaluate(w.condition(), api.state(), facts);
          if (o.holds()) {
            continue;
          }
          waiting = w;
          waitingStep = index;
          api.scheduleIn(w.timeout(), new Event.WaitTimeout(index));
          return;
        }
        case ScenarioAction.Expect e -> {
          Conditions.Outcome o = Conditions.evaluate(e.condition(), api.state(), facts);
          outcome(index, e.description(), o.holds(), o.seen());
        }
        case ScenarioAction.Checkpoint c ->
            checkpoints.add(new Checkpoint(c.label(), api.now(), api.state(), api.recordSize()));
      }
    }
    // The run lasts until the last throughout/never window closes.
    Optional<Instant> last = watches.stream().flatMap(w -> w.until().stream()).max(Instant::compareTo);
    if (last.isPresent() && last.get().isAfter(api.now())) {
      api.schedule(last.get(), new Event.ScenarioStep());
      return;
    }
    done = true;
  }

  /**
   * After every event: throughout/never expectations are checked, and a wait-until whose condition
   * now holds lets the timeline go on.
   */
  void checkWaiting() {
    for (OpenWatch w : List.copyOf(watches)) {
      check(w);
    }
    if (waiting != null && Conditions.evaluate(waiting.condition(), api.state(), facts).holds()) {
      waiting = null;
      waitingStep = -1;
      api.schedule(api.now(), new Event.ScenarioStep());
    }
  }

  boolean isWaiting() {
    return waiting != null;
  }

  void onTimeout(Event.WaitTimeout t) {
    if (waiting != null && waitingStep == t.step()) {
      Conditions.Outcome o = Conditions.evaluate(waiting.condition(), api.state(), facts);
      outcome(t.step(), "wait until " + ConditionText.of(waiting.condition()), false, "timed out after "
          + KubeDuration.format(waiting.timeout()) + ": "
          + o.seen());
      waiting = null;
      waitingStep = -1;
      advance();
    }
  }

  /**
   * Sends an interruption notice about a node's instance. EC2 sends spot interruption warnings and
   * rebalance recommendations only to spot instances: aimed at an on-demand or reserved node, the
   * notice does not happen, and the record says so, naming the step and the node.
   */
  private void interrupt(int index, ScenarioAction.Interrupt i) {
    Optional<String> node = Conditions.resolve(i.node(), api.state());
    Optional<NodeClaim> claim = node.flatMap(n -> api.state().nodes().get(n).claim())
        .map(c -> api.state().claims().get(c));
    if (claim.isEmpty()) {
      outcome(index, "interrupt " + i.node(), false, "no Karpenter-managed node for " + i.node());
      return;
    }
    NodeClaim c = claim.get();
    CapacityType type = c.offering().capacityType();
    if (i.notice().spotOnly() && type != CapacityType.SPOT) {
      api.log(RunRecord.Kind.SCENARIO, c.name(), stepOf(index) + ": no " + i.notice().describe() + " for "
          + node.get() + ": it is " + type.wireName() + " capacity, and EC2 sends this notice only to spot instances");
      return;
    }
    api.log(RunRecord.Kind.SCENARIO, c.name(), (i.notice() == InterruptionNotice.SPOT_INTERRUPTION
        ? "spot interruption" : i.notice().describe()) + " of " + node.get());
    cloud.notify(c, i.notice());
  }

  /** The step a timeline action belongs to: the heading of the checkpoint that ends it, if any. */
  private String stepOf(int index) {
    for (int j = index; j < timeline.size(); j++) {
      if (timeline.get(j) instanceof ScenarioAction.Checkpoint cp) {
        return "step " + cp.label();
      }
    }
    return "action " + (index + 1);
  }

  private void outcome(int step, String description, boolean passed, String detail) {
    outcomes.add(new ExpectationOutcome(step, description, api.now(), passed, detail));
    api.log(RunRecord.Kind.EXPECTATION, description, (passed ? "passed: " : "FAILED: ") + detail);
  }

  /**
   * One throughout/never expectation at the current event: past its window it has passed (it was
   * checked at every event up to the window's end); otherwise the first event that breaks it fails it.
   */
  private void check(OpenWatch w) {
    if (w.until().isPresent() && api.now().isAfter(w.until().get())) {
      watches.remove(w);
      outcome(w.step(), w.watch().description(), true, held(w) + " for " + KubeDuration.format(w.watch().window()
          .orElseThrow()));
      return;
    }
    Conditions.Outcome o = Conditions.evaluate(w.watch().condition(), api.state(), facts);
    if (o.holds() == w.watch().never()) {
      watches.remove(w);
      outcome(w.step(), w.watch().description(), false, (w.watch().never() ? "held" : "broken") + " after "
          + KubeDuration.format(Duration.between(w.since(), api.now())) + ": " + o.seen());
    }
  }

  private static String held(OpenWatch w) {
    return w.watch().never() ? "never held" : "held throughout";
  }

  /** At the end of the run: every throughout/never expectation not broken has passed, as far as the run went. */
  void finish() {
    for (OpenWatch w : List.copyOf(watches)) {
      watches.remove(w);
      boolean whole = w.until().map(u -> !api.now().isBefore(u)).orElse(true);
      outcome(w.step(), w.watch().description(), true, held(w) + (whole && w.until().isPresent()
          ? " for " + KubeDuration.format(w.watch().window().orElseThrow())
          : " until the run ended, " + KubeDuration.format(Duration.between(w.since(), api.now()))
              + " after it started"));
    }
  }

  // ---- actions ----

  void apply(List<ClusterObject> objects) {
    api.scenarioChanges();
    // NodePools and their node classes first, so adopted nodes find theirs.
    for (ClusterObject o : objects) {
      if (o instanceof ClusterObject.NodePoolObject p) {
        putNodePool(p.nodePool());
      } else if (o instanceof ClusterObject.NodeClassObject nc) {
        api.applyNodeClass(nc.nodeClass());
        api.log(RunRecord.Kind.SCENARIO, "ec2nodeclass/" + nc.nodeClass().name(), "EC2NodeClass applied");
      } else if (o instanceof ClusterObject.KueueObjects k) {
        // Before the Jobs, so Kueue's webhook suspends those that name a queue.
        kueue.apply(k.objects());
        api.log(RunRecord.Kind.SCENARIO, "kueue", "Kueue's objects applied: " + k.objects().clusterQueues().size()
            + " ClusterQueues, " + k.objects().localQueues().size() + " LocalQueues, " + k.objects().flavors().size()
            + " ResourceFlavors");
      }
    }
    // DRA objects before pods, so the resource claim controller finds the templates they name.
    for (ClusterObject o : objects) {
      if (o instanceof ClusterObject.DraObjectValue d) {
        api.putDraObject(d.object());
        String kind = d.object().kind().toLowerCase(Locale.ROOT);
        api.log(RunRecord.Kind.SCENARIO, kind + "/" + d.object().name(), d.object().kind() + " applied");
      }
    }
    // Pods the objects already have belong to their controllers (by ownerReferences), which resume
    // from them; a ReplicaSet a Deployment owns is that Deployment's and runs nothing itself.
    Ownership ownership = new Ownership(objects.stream().filter(o -> o instanceof ClusterObject.WorkloadObject)
        .map(o -> ((ClusterObject.WorkloadObject) o).workload()).toList());
    Map<ObjectRef, Optional<Instant>> jobStarts = new HashMap<>();
    for (ClusterObject o : objects) {
      if (o instanceof ClusterObject.WorkloadObject w) {
        jobStarts.put(WorkloadState.keyOf(w.workload()), w.started());
      }
    }
    // A Job resumes counting the completions its finished pods already made.
    SortedMap<ObjectRef, Integer> completed = new TreeMap<>();
    for (ClusterObject o : objects) {
      switch (o) {
        case ClusterObject.NodePoolObject p -> { }
        case ClusterObject.NodeClassObject nc -> { }
        case ClusterObject.DraObjectValue d -> { }
        case ClusterObject.KueueObjects k -> { }
        case ClusterObject.NodeOverlayObject ov -> {
          api.applyNodeOverlay(ov.overlay());
          api.log(RunRecord.Kind.SCENARIO, "nodeoverlay/" + ov.overlay().name(), "NodeOverlay applied");
        }
        case ClusterObject.NodeObject n -> addNode(n.node(), n.claim());
        case ClusterObject.PodObject p -> {
          Optional<Workload> controller = ownership.controllerOf(p.pod());
          // The twin tells a Deployment's current pods by its own ReplicaSet name: an observed pod of the
          // current template takes it; one of an older ReplicaSet (a rollout in progress) keeps its own,
          // so the controller goes on replacing it within maxSurge and maxUnavailable.
          var pod = controller.filter(w -> w instanceof Workload.Deployment && ownership.ofCurrentTemplate(p.pod()))
              .map(w -> p.pod().withMeta(p.pod().meta().withOwner(PodFactory.owner(w)))).orElse(p.pod());
          // Kueue's pod webhook gates a pod it manages (pod integration) as it is created.
          pod = p.running() ? pod : kueue.admitPod(pod);
          api.createPod(pod, controller.map(WorkloadState::keyOf));
          if (!p.running()) {
            kueue.podCreated(pod);
          }
          if (p.running()) {
            // Its own status.startTime, else its Job's: the earliest it can have started.
            kubelet.resumeRunning(pod.key(), p.started().or(() -> controller.flatMap(w -> jobStarts.getOrDefault(
                WorkloadState.keyOf(w), Optional.empty()))));
          }
        }
        case ClusterObject.SucceededPodObject s -> ownership.controllerOf(s.pod())
            .filter(w -> w instanceof Workload.Job).map(WorkloadState::keyOf)
            .ifPresent(job -> completed.merge(job, 1, Integer::sum));
        case ClusterObject.WorkloadObject w -> { }
        case ClusterObject.PdbObject b -> {
          api.putPdb(b.pdb());
          api.log(RunRecord.Kind.SCENARIO, b.pdb().meta().key(), "PodDisruptionBudget applied");
        }
      }
    }
    // Workloads last, so that their controllers find the pods they own whatever the file order.
    for (ClusterObject o : objects) {
      if (o instanceof ClusterObject.WorkloadObject w && !ownership.owned(w.workload())) {
        putWorkload(w.workload());
      }
    }
    completed.forEach((job, n) -> {
      WorkloadState w = api.state().workloads().get(job);
      if (w != null) {
        api.workloadStatus(w.withSucceeded(w.succeeded() + n));
      }
    });
  }

  private void putNodePool(NodePool p) {
    api.applyNodePool(p);
    api.log(RunRecord.Kind.SCENARIO, "nodepool/" + p.name(), "NodePool applied");
  }


  private void putWorkload(Workload w) {
    ObjectRef key = WorkloadState.keyOf(w);
    WorkloadState old = api.state().workloads().get(key);
    api.metrics().service(key, Traffic.of(w));
    api.putWorkload(old == null ? new WorkloadState(key, w, 0, 0) : old.withWorkload(w));
    api.log(RunRecord.Kind.SCENARIO, key.toString(), old == null ? "created" : "updated");
    // Kueue's Job reconciler makes its Workload once the Job exists; its controller runs at the next sync.
    if (old == null && w instanceof Workload.Job job) {
      kueue.jobCreated(key, job);
    }
  }

  void addNode(Node node) {
    addNode(node, Optional.empty());
  }

  /**
   * A Node from the scenario. Labelled with a known NodePool and instance type (its own labels, or
   * those of the NodeClaim the input binds to it), it is adopted as an initialised NodeClaim of that
   * NodePool, named as the cluster named it (the node's name when the input has no NodeClaim), its
   * GPUs advertised as the device plugin would; otherwise it is a node Karpenter does not manage.
   */
  void addNode(Node node, Optional<ClusterObject.ObservedClaim> observed) {
    Labels labels = observed.map(c -> c.labels().withAll(node.labels())).orElse(node.labels());
    Optional<NodePool> pool = labels.get(KarpenterLabels.NODEPOOL).flatMap(api.state()::nodePool);
    Optional<InstanceType> type = labels.get(InstanceLabels.INSTANCE_TYPE).flatMap(api.state().catalog()::find);
    Instant now = api.now();
    if (pool.isPresent() && type.isPresent()) {
      InstanceType t = ProvisioningModel.nodeClassOf(pool.get(), api.nodeClasses())
          .apply(type.get());
      CapacityType ct = labels.get(KarpenterLabels.CAPACITY_TYPE).flatMap(CapacityType::fromWire)
          .orElse(CapacityType.ON_DEMAND);
      Optional<String> zone = labels.get(InstanceLabels.ZONE);
      Offering offering = t.offerings().stream().filter(o -> o.capacityType() == ct)
          .filter(o -> zone.map(o.zone()::equals).orElse(true)).findFirst()
          .orElse(new Offering(ct, zone.orElse("unknown"), t.onDemandPrice(), true));
      NodePool p = pool.get();
      Labels claimLabels = p.template().labels().withAll(t.labels()).with(KarpenterLabels.NODEPOOL, p.name())
          .with(KarpenterLabels.CAPACITY_TYPE, ct.wireName()).with(InstanceLabels.ZONE, offering.zone());
      Labels nodeLabels = claimLabels.withAll(labels).with(InstanceLabels.HOSTNAME, node.name())
          .with(KarpenterLabels.REGISTERED, "true").with(KarpenterLabels.INITIALIZED, "true");
      // A manifest that leaves out the node's resources (a pods count alone is the kubelet default
      // a reader may add) gets the instance type's, as Karpenter would compute them.
      boolean given = node.allocatable().contains(ResourceName.CPU);
      ResourceList alloc = !given
          ? NodePoolTemplate.effectiveAllocatable(t, nodeLabels, api.devicePlugin().advertiser(),
              AutoscalerSettings.GpuSizing.ADVERTISED)
          : node.allocatable();
      ResourceList cap = !node.capacity().contains(ResourceName.CPU)
          ? t.capacity().withoutNvidiaGpus().plus(gpuOnly(alloc)) : node.capacity();
      // Registered as the engine registers every GPU node: GFD's labels and the MIG manager's state.
      Labels registered = api.devicePlugin().operator().register(node.withLabels(nodeLabels), t.gpu()).node().labels();
      Node adopted = node.withLabels(registered).withResources(cap, alloc)
          .withTaints(mergeTaints(node, p));
      String claimName = observed.map(ClusterObject.ObservedClaim::name).orElse(node.name());
      NodeClaim claim = new NodeClaim(claimName, p.name(), t, offering, claimLabels,
          p.template().annotations().with(KarpenterLabels.NODEPOOL_HASH, p.templateHash()), p.template().taints(),
          p.template().startupTaints(), ResourceList.EMPTY, p.templateHash(), p.template().expireAfter(),
          p.template().terminationGracePeriod(), now, Optional.of(now), Optional.of(now), Optional.of(now),
          Optional.of(node.name()), Optional.empty(), Optional.empty());
      // Adopted as launched under its class as it is now: its hash and AMI, for drift.
      NodeClassRef ref = p.template().nodeClassRef();
      if (ref.kind().equals("EC2NodeClass") && api.nodeClasses().containsKey(ref.name())) {
        claim = api.nodeClasses().get(ref.name()).stamp(claim);
      }
      api.addNode(kubelet.joining(adopted, Optional.of(claim.name()), Optional.of(p.name()), t.gpu(), true, true));
      api.putClaim(claim);
      api.metrics().claimLaunched(claim.name(), p.name(), t.name() + " " + offering.capacityType().wireName(),
          offering.pricePerHour(), now);
      api.log(RunRecord.Kind.SCENARIO, node.name(), "node adopted as NodeClaim "
          + observed.map(c -> c.name() + " ").orElse("") + "of NodePool " + p.name() + " (" + t.name() + ")");
      return;
    }
    // Its cards found as node describe and smi find them (annotation, GFD labels, instance type), so
    // the same manifest gives the same GPUs everywhere; else whatever its capacity advertises.
    NodeGpus.Found found = NodeGpus.of(node, api.devicePlugin().operator().catalog(),
        api.state().catalog().instanceTypeGpus());
    long advertised = node.capacity().getOrZero(ResourceName.NVIDIA_GPU).value();
    Optional<GpuSpec> byCapacity = advertised > 0 ? Optional.of(new GpuSpec(
        labels.get("nvidia.com/gpu.product").orElse("gpu"), "nvidia", (int) advertised, 0)) : Optional.empty();
    Optional<GpuSpec> spec = switch (found) {
      case NodeGpus.Found.Gpus g when g.inventory().count() > 0 -> Optional.of(new GpuSpec(
          g.inventory().model().productName(), "nvidia", g.inventory().count(),
          g.inventory().model().memoryMiB().orElse(0)));
      case NodeGpus.Found.Gpus g -> Optional.empty();
      case NodeGpus.Found.NoGpus n -> byCapacity;
      case NodeGpus.Found.Unresolved u -> byCapacity;
      case NodeGpus.Found.Invalid u -> byCapacity;
    };
    // A node left to NVIDIA's DRA driver runs no device plugin; the driver's ResourceSlice offers its cards.
    boolean devicePlugin = GpuOperator.runsDevicePlugin(labels);
    api.addNode(kubelet.joining(node, Optional.empty(), Optional.empty(), spec, true, devicePlugin));
    api.log(RunRecord.Kind.SCENARIO, node.name(), "node added" + switch (found) {
      case NodeGpus.Found.Gpus g -> " with " + g.inventory().count() + " x " + g.inventory().model().productName()
          + " (from " + g.source() + ")" + g.warnings().stream().map(w -> "; " + w.message())
              .collect(Collectors.joining());
      case NodeGpus.Found.NoGpus n -> "";
      case NodeGpus.Found.Unresolved u -> "; its GPUs are taken from its capacity, since " + u.field() + " does not "
          + "resolve: " + u.reason();
      case NodeGpus.Found.Invalid u -> "; its GPUs are taken from its capacity, since " + u.field() + " does not "
          + "resolve: " + u.reason();
    });
  }

  private static List<Taint> mergeTaints(Node node, NodePool p) {
    List<Taint> taints = new ArrayList<>(node.taints());
    for (var t : p.template().taints()) {
      if (taints.stream().noneMatch(t::sameKeyAndEffect)) {
        taints.add(t);
      }
    }
    return taints;
  }

  private static ResourceList gpuOnly(ResourceList r) {
    ResourceList out = ResourceList.EMPTY;
    for (var e : r.quantities().entrySet()) {
      if (e.getKey().isNvidiaGpuLike()) {
        out = out.with(e.getKey(), e.getValue());
      }
    }
    return out;
  }

  private void label(NodeRef ref, String key, Optional<String> value) {
    Optional<String> node = Conditions.resolve(ref, api.state());
    if (node.isEmpty()) {
      outcome(next - 1, "label " + ref, false, "no " + ref);
      return;
    }
    NodeState n = api.state().nodes().get(node.get());
    Labels labels = value.map(v -> n.node().labels().with(key, v)).orElse(n.node().labels().without(key));
    api.updateNode(n.withNode(n.node().withLabels(labels)));
    api.log(RunRecord.Kind.NODE_LABELED, node.get(), key + value.map(v -> "=" + v).orElse("-"));
    if (key.equals(MigPartedConfig.CONFIG_LABEL)) {
      migManager.configChanged(node.get());
    }
    if (key.equals(GpuAdvertiser.CONFIG_LABEL)) {
      kubelet.configChanged(node.get());
    }
  }

  private void scale(String ref, int replicas) {
    Optional<ObjectRef> key = Conditions.workload(ref, api.state());
    if (key.isEmpty()) {
      outcome(next - 1, "scale " + ref, false, "no workload " + ref);
      return;
    }
    WorkloadState w = api.state().workloads().get(key.get());
    Workload scaled = switch (w.workload()) {
      case Workload.Deployment d -> d.withReplicas(replicas);
      case Workload.ReplicaSet r -> new Workload.ReplicaSet(r.meta(), replicas, r.selector(), r.template());
      case Workload.StatefulSet s -> new Workload.StatefulSet(s.meta(), replicas, s.selector(), s.template());
      case Workload.Job j -> new Workload.Job(j.meta(), replicas, j.completions(), j.selector(), j.template(),
          j.runFor());
      case Workload.DaemonSet ds -> ds;
    };
    api.putWorkload(w.withWorkload(scaled));
    api.log(RunRecord.Kind.SCENARIO, key.get().toString(), "scaled to " + replicas);
  }

  private void delete(String kind, String name) {
    String ns = name.contains("/") ? name.substring(0, name.indexOf('/')) : "default";
    String n = name.contains("/") ? name.substring(name.indexOf('/') + 1) : name;
    switch (kind) {
      case "Pod" -> api.deletePod(ObjectMeta.key(ns, n), RunRecord.Kind.POD_DELETED, "deleted by the scenario");
      case "PodDisruptionBudget" -> api.removePdb(ObjectMeta.key(ns, n));
      case "DeviceTaintRule" -> {
        // Cluster-scoped: the name as written.
        if (!api.deleteDeviceTaintRule(name)) {
          outcome(next - 1, "delete " + kind + " " + name, false, "not found");
          return;
        }
      }
      case "NodePool" -> {
        api.deleteNodePool(n);
        for (NodeClaim c : api.state().claims().values()) {
          if (c.nodePool().equals(n)) {
            karpenter.apply(List.of(new Action.DeleteNodeClaim(c.name(),
                RemovalReason.DELETED)), Optional.empty());
          }
        }
      }
      case "NodeClaim", "Node" -> {
        String claim = kind.equals("Node") ? Optional.ofNullable(api.state().nodes().get(n)).flatMap(NodeState::claim)
            .orElse(n) : n;
        if (api.state().claims().get(claim) != null) {
          karpenter.apply(List.of(new Action.DeleteNodeClaim(claim,
              RemovalReason.DELETED)), Optional.empty());
        } else if (api.state().nodes().get(n) != null) {
          api.removeNode(n, "deleted by the scenario");
        }
      }
      default -> {
        ObjectRef key = new ObjectRef(kind, ns, n);
        if (api.state().workloads().get(key) == null) {
          outcome(next - 1, "delete " + kind + " " + name, false, "not found");
          return;
        }
        api.removeWorkload(key);
        for (PodState p : api.state().podsOf(key)) {
          api.deletePod(p.key(), RunRecord.Kind.POD_DELETED, "owner deleted");
        }
      }
    }
    api.log(RunRecord.Kind.SCENARIO, kind + "/" + name, "deleted");
  }
}
