package io.gpufleet.sim.controller;

import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.sim.EventObserver;
import io.gpufleet.sim.ImageListener;
import io.gpufleet.sim.ProgressListener;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.invariant.InvariantViolation;
import io.gpufleet.sim.invariant.Invariants;
import io.gpufleet.sim.kernel.Event;
import io.gpufleet.sim.kernel.Kernel;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.scenario.Scenario;
import io.gpufleet.sim.state.ClusterState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One simulation run: wires the kernel, the API server, the controllers and Karpenter, plays the
 * scenario, checks the invariants after every event, and collects the result. All randomness comes
 * from the scenario's seed, one stream per purpose ({@link RandomStreams}).
 */
public final class Runtime {

  private static final long PROGRESS_EVERY = 50_000;

  private final Scenario scenario;
  private final Kernel kernel;
  private final ApiServer api;
  private final Kubelet kubelet;
  private final MigManagerDaemon migManager;
  private final KubeScheduler scheduler;
  private final KueueController kueue;
  private final WorkloadControllers workloads;
  private final CloudProvider cloud;
  private final KarpenterLoop karpenter;
  private final TaintManager taints;
  private final DeviceTaintController deviceTaints;
  private final ScenarioRunner runner;
  private final List<InvariantViolation> violations = new ArrayList<>();

  public Runtime(Scenario scenario) {
    this(scenario, false);
  }

  /**
   * With {@code fullScans}, kube-scheduler scans every pending pod each cycle and the workload
   * controllers every workload each sync: the oracle of their tests.
   */
  Runtime(Scenario scenario, boolean fullScans) {
    this.scenario = scenario;
    this.kernel = new Kernel(scenario.start());
    this.api = new ApiServer(kernel, scenario.settings(), scenario.devicePlugin(), ClusterState.empty(
        scenario.catalog()));
    RandomStreams random = new RandomStreams(scenario.seed());
    this.kubelet = new Kubelet(api, scenario.settings().draDriver());
    this.scheduler = new KubeScheduler(api, random.tieBreaks(), random.extendedResourceClaimNames(),
        scenario.namespaces(), scenario.settings().draDriver(), fullScans);
    new ResourceClaimController(api, random.claimNames());
    this.kueue = new KueueController(api, random.kueueRequeueJitter());
    this.workloads = new WorkloadControllers(api, random.names(), kueue, fullScans);
    this.cloud = new CloudProvider(api, random, kubelet);
    this.karpenter = new KarpenterLoop(api, cloud, scenario.autoscaler(), scenario.devicePlugin().advertiser(),
        violations, random);
    this.taints = new TaintManager(api);
    this.deviceTaints = new DeviceTaintController(api);
    this.migManager = new MigManagerDaemon(api, kubelet);
    this.runner = new ScenarioRunner(api, kubelet, migManager, cloud, karpenter, kueue, scenario);
  }

  public SimulationResult run(ProgressListener progress) {
    Instant start = scenario.start();
    Instant horizon = start.plus(scenario.settings().horizon());
    cloud.reserve(scenario.reservations());
    runner.apply(scenario.objects());
    kernel.schedule(start, new Event.ScenarioStep());
    kernel.schedule(start.plus(scenario.autoscaler().disruptionPoll()), new Event.DisruptionPoll());
    check();
    offerImage();
    EventObserver o = observer;
    kernel.run(o == EventObserver.NONE ? this::handle : e -> o.around(e, () -> handle(e)),
        () -> runner.done() || kernel.now().isAfter(horizon));
    runner.finish();
    Instant end = kernel.now();
    progress.onProgress(new ProgressListener.Progress(end, kernel.processed(), runner.step(), runner.steps()));
    return new SimulationResult(scenario.name(), start, end, kernel.processed(), api.buildRecord(),
        api.metrics().finish(end), runner.outcomes(), violations, api.state(), runner.checkpoints());
  }

  private ProgressListener listener = ProgressListener.NONE;
  private ImageListener images = ImageListener.NONE;
  private EventObserver observer = EventObserver.NONE;
  private long lastImageVersion = -1;

  public SimulationResult run() {
    return run(ProgressListener.NONE);
  }

  public Runtime listening(ProgressListener l) {
    this.listener = l;
    return this;
  }

  /** Hands {@code l} the cluster image after each event that changed it. */
  public Runtime watchingImages(ImageListener l) {
    this.images = l;
    return this;
  }

  /** Wraps {@code o} around the handling of each event. */
  public Runtime observing(EventObserver o) {
    this.observer = o;
    return this;
  }

  private void handle(Event e) {
    switch (e) {
      case Event.NodeRegisters r -> cloud.onRegisters(r);
      case Event.NodeReady r -> kubelet.onNodeReady(r);
      case Event.StartupTaintsRemoved r -> {
        var node = api.state().nodes().get(r.node());
        var startup = node == null ? null : node.claim().map(c -> api.state().claims().get(c)).map(
            NodeClaim::startupTaints).orElse(List.of());
        if (startup != null) {
          kubelet.onStartupTaintsRemoved(r, startup);
        }
      }
      case Event.DevicePluginRegisters r -> kubelet.onPluginRegisters(r);
      case Event.MigReconfigured r -> migManager.onReconfigured(r);
      case Event.PodStarts r -> kubelet.onStarts(r);
      case Event.PodBecomesReady r -> kubelet.onReady(r);
      case Event.PodCompletes r -> kubelet.onCompletes(r, workloads);
      case Event.PodExits r -> kubelet.onExits(r);
      case Event.SpotReclaimed r -> cloud.onReclaimed(r);
      case Event.SpotWarningDrawn r -> cloud.onWarningDrawn(r);
      case Event.ReservationBoundary r -> {
        cloud.onReservationBoundary(r);
        karpenter.onReservationBoundary();
      }
      case Event.InstanceStateChanged r -> cloud.onStateChanged(r);
      case Event.ScenarioStep s -> runner.advance();
      case Event.InterruptionArrives i -> karpenter.onInterruption(i);
      case Event.WorkloadSync w -> {
        api.woke(w);
        kueue.reconcile();
        workloads.sync();
      }
      case Event.KarpenterReconcile k -> {
        api.woke(k);
        karpenter.reconcile();
      }
      case Event.ScheduleCycle c -> {
        api.woke(c);
        scheduler.cycle();
      }
      case Event.BatchCheck b -> {
        api.woke(b);
        karpenter.onBatchCheck();
      }
      case Event.DisruptionPoll p -> karpenter.onPoll();
      case Event.DisruptionValidates v -> karpenter.onValidate(v);
      case Event.WaitTimeout t -> runner.onTimeout(t);
    }
    taints.enforce(api.touchedNodes());
    deviceTaints.enforce();
    karpenter.retireFinishedCommands();
    check();
    runner.checkWaiting();
    offerImage();
    if (kernel.processed() % PROGRESS_EVERY == 0) {
      listener.onProgress(new ProgressListener.Progress(kernel.now(), kernel.processed(), runner.step(),
          runner.steps()));
    }
  }

  private void offerImage() {
    if (api.state().version() != lastImageVersion) {
      lastImageVersion = api.state().version();
      images.onImage(new ImageListener.Image(kernel.now(), kernel.processed(), api.state(), api.recordSize()));
    }
  }

  /** The invariants over what this event touched (or everything), then a fresh delta. */
  private void check() {
    SimulationSettings.InvariantMode mode = scenario.settings().invariants();
    if (mode != SimulationSettings.InvariantMode.OFF) {
      var nodes = mode == SimulationSettings.InvariantMode.FULL ? api.state().nodes().keys() : api.touchedNodes();
      List<InvariantViolation> found = Invariants.check(api.state(), kernel.now(), nodes, api.boundThisEvent(),
          api.evictionsThisEvent());
      for (InvariantViolation v : found) {
        violations.add(v);
        api.log(RunRecord.Kind.INVARIANT_VIOLATED, v.subject(), v.invariant() + ": " + v.detail());
      }
    }
    api.startEvent();
  }
}
