package io.gpufleet.sim.controller;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.Karpenter;
import io.gpufleet.autoscaler.action.Action;
import io.gpufleet.autoscaler.action.RemovalReason;
import io.gpufleet.autoscaler.disruption.ConsolidationRefusal;
import io.gpufleet.autoscaler.disruption.DisruptionCommand;
import io.gpufleet.autoscaler.disruption.DisruptionController;
import io.gpufleet.autoscaler.disruption.InFlightDisruption;
import io.gpufleet.autoscaler.gpu.GpuAdvertiser;
import io.gpufleet.autoscaler.provisioning.ClusterClaims;
import io.gpufleet.autoscaler.provisioning.DraProvisioning;
import io.gpufleet.autoscaler.provisioning.NodeOverlays;
import io.gpufleet.autoscaler.provisioning.ProvisioningModel;
import io.gpufleet.autoscaler.reservation.CapacityBlockExpiration;
import io.gpufleet.autoscaler.reservation.CapacityTypeDemotion;
import io.gpufleet.autoscaler.reservation.ReservationStatus;
import io.gpufleet.model.cloud.CapacityReservation;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.termination.DoNotDisrupt;
import io.gpufleet.autoscaler.termination.Termination;
import io.gpufleet.engine.dra.DraState;
import io.gpufleet.engine.dra.PodClaims;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.collect.PMap;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.karpenter.EC2NodeClass;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodeOverlay;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.workload.DisruptionBudget;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.sim.invariant.Eviction;
import io.gpufleet.sim.invariant.InvariantViolation;
import io.gpufleet.sim.kernel.Event;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.state.ClaimTable;
import io.gpufleet.sim.state.ClusterState;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.state.PodState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Runs Karpenter inside the simulation: opens and closes the provisioner's batch window, asks the
 * autoscaler for decisions on a view of the current image (provisioning, lifecycle, termination,
 * disruption every poll interval, validation, interruption) and applies the actions it returns.
 */
final class KarpenterLoop {

  private final ApiServer api;
  private final CloudProvider cloud;
  private final ViewBuilder views;
  private final AutoscalerSettings settings;
  private final RandomStreams random;
  private final GpuAdvertiser advertiser;
  private Karpenter karpenter;
  private List<NodePool> modelPools;
  private List<Workload.DaemonSet> modelDaemons;
  private List<NodeOverlay> modelOverlays;
  private Map<String, EC2NodeClass> modelClasses;
  /** The written DRA objects the DRA sizing was built over (an immutable value: identity tells change). */
  private DraObjects modelDra;
  /**
   * The cluster's claims as gpufleet's DRA sizing ({@code draRequests: allocate}) reads them: those
   * the resource claim controller made for pods and the allocations the scheduler recorded at bind.
   */
  private final ClusterClaims claims = new ClusterClaims() {
    @Override
    public PodClaims.TemplateClaims templateClaims() {
      return (pod, entry, template) -> api.state().dra().madeFor(pod.key(), entry.name())
          .map(ClaimTable.Claim::claim);
    }

    @Override
    public Optional<DraState> recorded() {
      return Optional.of(api.state().dra().state());
    }
  };
  private Instant windowStart;
  private Instant lastTrigger;
  private long lastQuietVersion = -1;
  /** {@code ConsolidationState} in {@code K:pkg/controllers/state/cluster.go}: {@code time.Minute*5}. */
  static final Duration CONSOLIDATION_STATE_RESET = Duration.ofMinutes(5);
  private Instant quietUntil = Instant.MIN;
  private final List<InvariantViolation> violations;
  /** The deadlines of claims not deleting, kept by the image's changes. */
  private final ClaimDeadlines deadlines;

  KarpenterLoop(ApiServer api, CloudProvider cloud, AutoscalerSettings settings,
      GpuAdvertiser advertiser, List<InvariantViolation> violations,
      RandomStreams random) {
    this.api = api;
    this.random = random;
    this.views = new ViewBuilder();
    this.cloud = cloud;
    this.settings = settings;
    this.advertiser = advertiser;
    this.violations = violations;
    this.deadlines = new ClaimDeadlines(settings);
    api.onProvisioning(this::trigger);
    api.watch(ClusterEvent.InstanceTerminated.class, t -> instanceGone(t.claim(), t.why()));
  }

  ClusterView view() {
    return views.view(api.state(), api.now());
  }

  /**
   * The autoscaler, rebuilt when NodePools, DaemonSets or the catalogue change. It reads them from the
   * image, not a view: each launch asks for it, and a view after each new NodeClaim would rebuild
   * Karpenter's node list once per launch.
   */
  Karpenter karpenter() {
    syncReservations();
    ClusterState s = api.state();
    List<NodePool> pools = s.nodePools();
    List<Workload.DaemonSet> daemons = views.daemonSets(s);
    if (karpenter == null || changed(pools, modelPools) || changed(daemons, modelDaemons)
        || api.nodeOverlays() != modelOverlays || api.nodeClasses() != modelClasses
        || s.dra().written() != modelDra) {
      modelPools = pools;
      modelDaemons = daemons;
      modelOverlays = api.nodeOverlays();
      modelClasses = api.nodeClasses();
      modelDra = s.dra().written();
      karpenter = new Karpenter(settings, ProvisioningModel.of(pools, s.catalog(), daemons, advertiser,
          settings.sizing(), overlays(pools, s.catalog()), modelClasses, new DraProvisioning(
              settings.draRequests(), modelDra, api.devicePlugin().operator().catalog(), claims)));
    }
    return karpenter;
  }

  /**
   * The NodeOverlays Karpenter honours: none while the NodeOverlay feature gate is off (its default),
   * which the record says rather than dropping them quietly; an overlay that conflicts with another of
   * the same weight is refused as Karpenter's controller refuses it.
   */
  private NodeOverlays overlays(List<NodePool> pools,
      InstanceCatalog catalog) {
    List<NodeOverlay> all = api.nodeOverlays();
    if (all.isEmpty()) {
      return NodeOverlays.NONE;
    }
    if (!settings.nodeOverlay()) {
      for (var o : all) {
        api.log(RunRecord.Kind.KARPENTER_EVENT, "nodeoverlay/" + o.name(), "NodeOverlay ignored: the NodeOverlay "
            + "feature gate is off, as by default (spec.autoscaler.featureGates: {NodeOverlay: true} turns it on)");
      }
      return NodeOverlays.NONE;
    }
    var overlays = NodeOverlays.of(all, pools, catalog);
    for (String c : overlays.conflicting()) {
      api.log(RunRecord.Kind.KARPENTER_EVENT, "nodeoverlay/" + c, "ValidationSucceeded False (Conflict): conflict "
          + "with another overlay");
    }
    return overlays;
  }

  /** Whether a list differs, comparing elements by identity first (images keep unchanged values). */
  private static boolean changed(List<?> now, List<?> before) {
    if (now == before) {
      return false;
    }
    if (before == null || now.size() != before.size()) {
      return true;
    }
    for (int i = 0; i < now.size(); i++) {
      if (now.get(i) != before.get(i) && !now.get(i).equals(before.get(i))) {
        return true;
      }
    }
    return false;
  }

  // ---- provisioning ----

  /** A pod needs capacity: open the batch window or extend it (reference §1.4). */
  private void trigger() {
    Instant now = api.now();
    if (windowStart == null) {
      windowStart = now;
    }
    lastTrigger = now;
    api.wake(new Event.BatchCheck(), closeAt());
  }

  private Instant closeAt() {
    Instant idle = lastTrigger.plus(settings.batchIdle());
    Instant max = windowStart.plus(settings.batchMax());
    return idle.isBefore(max) ? idle : max;
  }

  void onBatchCheck() {
    if (windowStart == null) {
      if (!view().pendingPods().isEmpty()) {
        trigger();
      }
      return;
    }
    if (api.now().isBefore(closeAt())) {
      api.wake(new Event.BatchCheck(), closeAt());
      return;
    }
    windowStart = null;
    Karpenter k = karpenter();
    ClusterView v = view();
    apply(k.provision(v, views.deleting(v), random.provisioning()), Optional.empty());
  }

  // ---- reconcile: lifecycle, termination, disruption orchestration ----

  /** The NodePools, node classes and claims drift was last checked against: drift only changes when they do. */
  private List<NodePool> driftPools;
  private Map<String, EC2NodeClass> driftClasses;
  private int driftClaims = -1;

  void reconcile() {
    ClusterView v = view();
    boolean checkDrift = v.nodePools() != driftPools || api.nodeClasses() != driftClasses
        || api.state().claims().size() != driftClaims;
    PMap<String, StateNode> claimNodes = views.claimNodes(); // v's, taken before anything changes the image
    apply(karpenter().lifecycle(v, checkDrift, api.nodeClasses(), claimNodes, claims -> views.inViewOrder(v, claims)),
        Optional.empty());
    driftPools = v.nodePools();
    driftClasses = api.nodeClasses();
    driftClaims = api.state().claims().size();
    // Termination acts only on deleting claims: with none in the image, it has nothing to do, and
    // neither a view nor a walk over the nodes is needed to find that out.
    deadlines.update(api.state().claims());
    if (!deadlines.deleting().isEmpty()) {
      ClusterView now = view();
      apply(karpenter().terminate(now, views.inViewOrder(now, deadlines.deleting()),
          claim -> api.state().removalReasons().get(claim) == null
          ? RemovalReason.DELETED : api.state().removalReasons().get(claim)), Optional.empty());
    }
    for (InFlightDisruption d : new ArrayList<>(api.state().executing().values())) {
      apply(karpenter().progress(d, view()), Optional.empty());
    }
    scheduleTimers();
  }

  /** Wakes the reconciler at the next deadline: timeouts, expiry, grace deadlines, eviction retries. */
  private void scheduleTimers() {
    Instant now = api.now();
    deadlines.update(api.state().claims());
    Instant next = deadlines.nextAfter(now).orElse(null);
    for (String name : deadlines.deleting()) {
      NodeClaim c = api.state().claims().get(name);
      List<Instant> due = new ArrayList<>();
      Optional<StateNode> n = view().node(c.name());
      if (n.isPresent() && blockedByPdb(n.get())) {
        due.add(now.plus(settings.evictionRetry())); // the Eviction API refused: try again
      }
      n.flatMap(s -> Termination.nextForceDeadline(s, now)).ifPresent(due::add);
      n.flatMap(s -> DoNotDisrupt.nextExpiry(s, now)).ifPresent(due::add); // a protected pod becomes evictable
      for (Instant t : due) {
        if (t.isAfter(now) && (next == null || t.isBefore(next))) {
          next = t;
        }
      }
    }
    for (InFlightDisruption d : api.state().executing().values()) {
      Instant t = d.executed().plus(settings.replacementTimeout());
      if (t.isAfter(now) && (next == null || t.isBefore(next))) {
        next = t;
      }
    }
    if (next != null) {
      api.wake(new Event.KarpenterReconcile(), next);
    }
  }

  /** Whether a draining node still has a pod the Eviction API refused because of its PDB. */
  private boolean blockedByPdb(StateNode n) {
    for (Pod p : n.pods()) {
      if (!n.terminating().contains(p.key()) && !DoNotDisrupt.active(n, p, api.now())
          && view().pdbs().evictionBlocked(p).isPresent()) {
        return true;
      }
    }
    return false;
  }

  // ---- disruption ----

  void onPoll() {
    api.scheduleIn(settings.disruptionPoll(), new Event.DisruptionPoll());
    if (!api.state().proposed().isEmpty()) {
      return; // the controller waits out a validation before it looks again
    }
    if (api.disruptionEpoch() == lastQuietVersion && api.now().isBefore(quietUntil)) {
      return; // nothing it depends on has changed since a poll that found nothing
    }
    ClusterView v = view();
    Optional<DisruptionCommand> c = karpenter().disrupt(v, random.disruption());
    if (c.isPresent()) {
      apply(List.of(new Action.ProposeDisruption(c.get())), Optional.empty());
      explainDecision(v, c.get());
      return;
    }
    lastQuietVersion = api.disruptionEpoch();
    quietUntil = nextConsolidatableChange(v);
    explainQuiet(v);
  }

  /** The reason last recorded per NodeClaim for consolidation leaving it, so each change is recorded once. */
  private final Map<String, ConsolidationRefusal> unconsolidatable = new HashMap<>();

  /**
   * After a poll that found nothing: records, when it changes, why consolidation leaves each node it
   * could act on, as Karpenter's {@code Unconsolidatable} events say it.
   */
  private void explainQuiet(ClusterView v) {
    // Only what changed since the last quiet poll: the rest is as recorded (all of it from a new Karpenter).
    DisruptionController.RefusalChanges now = karpenter().unconsolidatableChanges(v);
    if (now.complete()) {
      unconsolidatable.keySet().retainAll(now.changed().keySet());
    } else {
      unconsolidatable.keySet().removeAll(now.gone());
    }
    now.changed().forEach((claim, why) -> {
      if (!why.equals(unconsolidatable.put(claim, why))) {
        api.log(RunRecord.Kind.KARPENTER_EVENT, claim, why.toString());
      }
    });
  }

  /**
   * At a decision, for {@code simulate --explain}: each node the command takes, and why consolidation
   * leaves each other node it could act on (the same reasons as the Unconsolidatable events). Only
   * when asked ({@code SimulationSettings.explainDecisions}) and while the record keeps every
   * occurrence: asking costs a simulation per node.
   */
  private void explainDecision(ClusterView v, DisruptionCommand c) {
    if (!api.recorder().enabled() || !api.settings().explainDecisions()) {
      return;
    }
    for (String claim : c.candidates()) {
      api.log(RunRecord.Kind.DISRUPTION_CONSIDERED, claim, "chosen by " + c.id());
    }
    karpenter().unconsolidatable(v).forEach((claim, why) -> {
      if (!c.candidates().contains(claim)) {
        api.log(RunRecord.Kind.DISRUPTION_CONSIDERED, claim, "left: " + why.message());
      }
    });
  }

  /**
   * When the answer of a poll over an unchanged cluster may next change: a node's consolidateAfter, a
   * budget window, or a pod's duration-based do-not-disrupt running out; and five minutes at most,
   * as Karpenter's consolidation state resets then so that what it cannot watch (an offering
   * available again after an insufficient-capacity error) is considered ({@code ConsolidationState}
   * in {@code K:pkg/controllers/state/cluster.go}).
   */
  private Instant nextConsolidatableChange(ClusterView v) {
    Instant now = api.now();
    for (NodePool p : v.nodePools()) {
      if (p.disruption().budgets().stream().anyMatch(b -> b.schedule().isPresent())) {
        return now; // budget windows open and close on the clock: always look
      }
    }
    return karpenter().nextConsolidatableChange(v, now.plus(CONSOLIDATION_STATE_RESET));
  }

  void onValidate(Event.DisruptionValidates e) {
    DisruptionCommand c = api.state().proposed().get(e.command());
    if (c == null) {
      return;
    }
    DisruptionController.Validation v = karpenter().validate(c, view(), random.disruption());
    switch (v) {
      case DisruptionController.Validation.Execute x -> apply(List.of(new Action.ExecuteDisruption(x.command())),
          Optional.empty());
      case DisruptionController.Validation.Abandon a -> apply(List.of(new Action.AbandonDisruption(c.id(), a.reason())),
          Optional.empty());
    }
  }

  // ---- capacity reservations ----

  /**
   * The nodeclass controller's {@code status.capacityReservations}, kept current with EC2: each
   * EC2NodeClass's selected reservations, their state and the instances they still take. A class
   * whose status changed is written back, which rebuilds the provisioning model with its reserved
   * offerings ({@link ReservationStatus}). The ReservedCapacity gate is on (its default, the only
   * value a scenario may give).
   */
  private void syncReservations() {
    if (cloud.reservations().isEmpty()) {
      return;
    }
    Map<String, Integer> available = new TreeMap<>();
    Map<String, Integer> running = cloud.runningInReservations();
    for (CapacityReservation r : cloud.reservations()) {
      available.put(r.id(), Math.max(0, r.count() - running.getOrDefault(r.id(), 0)));
    }
    for (EC2NodeClass c : api.nodeClasses().values()) {
      List<EC2NodeClass.ReservationStatus> status = ReservationStatus.resolve(c, cloud.reservations(), available,
          api.now());
      if (!status.equals(c.capacityReservations())) {
        api.applyNodeClass(c.withCapacityReservations(status));
      }
    }
    demoteEnded();
  }

  /**
   * The capacity-type controller, with the status in the same step, so that a reservation's end is
   * never seen as drift: claims and nodes in an ended ODCR are on-demand now, as EC2 reports their
   * instances ({@link CapacityTypeDemotion}).
   */
  private void demoteEnded() {
    for (NodeClaim c : List.copyOf(api.state().claims().values())) {
      Optional<String> id = c.labels().get(CapacityReservation.ID_LABEL);
      boolean ended = id.isPresent() && cloud.reservations().stream().anyMatch(r -> r.id().equals(id.get())
          && r.state(api.now()) == CapacityReservation.State.EXPIRED);
      if (!ended || c.isDeleting()) {
        continue;
      }
      CapacityTypeDemotion.demoted(c.labels(), CapacityType.ON_DEMAND).ifPresent(labels -> {
        api.putClaim(c.withLabels(labels));
        api.log(RunRecord.Kind.KARPENTER_EVENT, c.name(), "capacity reservation " + id.get()
            + " ended: capacity type demoted from reserved to on-demand");
      });
      c.nodeName().map(n -> api.state().nodes().get(n)).ifPresent(n -> CapacityTypeDemotion.demoted(
          n.node().labels(), CapacityType.ON_DEMAND)
          .ifPresent(labels -> api.updateNode(n.withNode(n.node().withLabels(labels)))));
    }
  }

  /**
   * A reservation reached one of its times: the status is synced (claims in an ended ODCR demoted);
   * NodeClaims in an expiring capacity block are deleted ({@link CapacityBlockExpiration}); pods may
   * have capacity now, or need it.
   */
  void onReservationBoundary() {
    syncReservations();
    for (NodeClaim c : CapacityBlockExpiration.toDelete(api.state().claims().values(), cloud.reservations(),
        api.now())) {
      api.log(RunRecord.Kind.KARPENTER_EVENT, c.name(), "initiating delete for capacity block expiration ("
          + c.labels().get(CapacityReservation.ID_LABEL).orElse("") + ")");
      delete(new Action.DeleteNodeClaim(c.name(), RemovalReason.DELETED));
    }
    trigger();
  }

  void onInterruption(Event.InterruptionArrives e) {
    apply(karpenter().interrupt(e.message(), view()), Optional.empty());
  }

  // ---- applying actions ----

  void apply(List<Action> actions, Optional<String> command) {
    for (Action a : actions) {
      switch (a) {
        case Action.LaunchNodeClaim l -> launch(l);
        case Action.MarkRegistered r -> registered(r);
        case Action.MarkInitialized i -> initialized(i);
        case Action.MarkDrifted d -> {
          NodeClaim c = api.state().claims().get(d.claim());
          if (c != null) {
            api.putClaim(c.withDrifted(Optional.of(d.reason())));
            api.log(RunRecord.Kind.NODECLAIM_DRIFTED, c.name(), d.reason());
          }
        }
        case Action.DeleteNodeClaim d -> delete(d);
        case Action.TerminateInstance t -> {
          NodeClaim c = api.state().claims().get(t.claim());
          if (c != null) {
            RemovalReason why = api.state().removalReasons().get(c.name());
            instanceGone(c, "terminated (" + (why == null ? RemovalReason.DELETED : why).text() + ")");
          }
        }
        case Action.TaintNode t -> setTaint(t.node(), t.taint(), true);
        case Action.UntaintNode t -> setTaint(t.node(), t.taint(), false);
        case Action.Evict e -> evict(e);
        case Action.MarkOfferingUnavailable m -> {
          api.offeringUnavailable(m.instanceType(), m.capacityType(), m.zone(), m.until());
          api.log(RunRecord.Kind.OFFERING_UNAVAILABLE, m.instanceType(), m.capacityType() + " in " + m.zone()
              + " until " + m.until());
          api.wake(new Event.BatchCheck(), m.until());
        }
        case Action.ProposeDisruption p -> {
          api.proposeDisruption(p.command());
          api.log(RunRecord.Kind.DISRUPTION_PROPOSED, p.command().id(), p.command().describe());
          p.command().approvals().forEach((object, message) -> api.log(RunRecord.Kind.KARPENTER_EVENT, object,
              "ConsolidationApproved: " + message));
          api.scheduleIn(settings.commandValidationDelay(), new Event.DisruptionValidates(p.command().id()));
        }
        case Action.ExecuteDisruption x -> execute(x.command());
        case Action.AbandonDisruption ab -> {
          api.abandonDisruption(ab.command());
          api.log(RunRecord.Kind.DISRUPTION_ABANDONED, ab.command(), ab.reason());
        }
        case Action.RetryProvisioning r -> api.wake(new Event.BatchCheck(), api.now().plus(r.after()));
        case Action.RecordEvent r -> api.log(RunRecord.Kind.KARPENTER_EVENT, r.object(), said(r));
      }
    }
  }

  /** The reason and message of the event {@link #said} wrote last, and its text. */
  private String saidReason;
  private String saidMessage;
  private String saidText;

  /**
   * {@code reason: message}. A provisioning round answers every pod of a spec it cannot place with
   * the one error, so a run of such events shares one text: made once, not once per pending pod.
   */
  private String said(Action.RecordEvent r) {
    if (r.reason() != saidReason || r.message() != saidMessage) {
      saidReason = r.reason();
      saidMessage = r.message();
      saidText = r.reason() + ": " + r.message();
    }
    return saidText;
  }

  private void launch(Action.LaunchNodeClaim l) {
    Optional<String> ice = cloud.insufficientCapacity(l.claim());
    if (ice.isPresent()) {
      // The claim is deleted as soon as it fails, so it never enters the image; a disruption whose
      // replacement it was finds it missing and is abandoned.
      api.log(RunRecord.Kind.NODECLAIM_LAUNCH_FAILED, l.claim().name(), l.claim().instanceType().name() + " "
          + l.claim().offering().capacityType() + " in " + l.claim().offering().zone() + ": " + ice.get());
      apply(karpenter().launchFailed(l.claim(), ice.get(), api.now()), Optional.empty());
      trigger(); // its pods are still pending: the next round picks another offering
      return;
    }
    checkLimits(l.claim(), l.command());
    cloud.launch(l.claim());
    // Say so when the launch was sized other than by the catalogue Karpenter reads: the twin's
    // sizing extension, or a NodeOverlay.
    for (String note : karpenter().provisioner().model().shaping(l.claim().nodePool(), l.claim().instanceType())) {
      api.log(RunRecord.Kind.KARPENTER_EVENT, l.claim().name(), note);
    }
    if (!l.pods().isEmpty()) {
      String why = l.fitting().isEmpty() ? "" : "; " + l.fitting().size() + " instance type(s) fit, cheapest first: "
          + String.join(", ", l.fitting().subList(0, Math.min(4, l.fitting().size())))
          + (l.fitting().size() > 4 ? ", ..." : "");
      api.log(RunRecord.Kind.KARPENTER_EVENT, l.claim().name(), "Launched for " + l.pods().size() + " pod(s)" + why);
    }
  }

  /**
   * The NodePool-limits invariant, at the one place capacity is added: the pool's NodeClaims
   * (counted by instance-type capacity, less a disruption's own candidates) stay within its limits.
   */
  private void checkLimits(NodeClaim claim, Optional<String> command) {
    Optional<NodePool> pool = api.state().nodePool(claim.nodePool());
    if (pool.isEmpty() || pool.get().limits().isEmpty()) {
      return;
    }
    List<String> leaving = command.map(id -> api.state().executing().get(id)).map(d -> d.command().candidates())
        .orElse(List.of());
    ResourceList used = claim.instanceType().capacity();
    int nodes = 1;
    for (NodeClaim c : api.state().claims().values()) {
      if (c.nodePool().equals(claim.nodePool()) && !leaving.contains(c.name())) {
        used = used.plus(c.instanceType().capacity());
        nodes++;
      }
    }
    for (var e : pool.get().limits().quantities().entrySet()) {
      Quantity have = e.getKey().name().equals("nodes") ? Quantity.of(nodes) : used.getOrZero(e.getKey());
      if (have.compareTo(e.getValue()) > 0) {
        violations.add(new InvariantViolation(api.now(), "nodepool-limits", claim.nodePool(),
            "launching " + claim.name() + " brings " + e.getKey() + " to " + have + ", over the limit " + e.getValue()));
      }
    }
  }

  private void registered(Action.MarkRegistered r) {
    NodeClaim c = api.state().claims().get(r.claim());
    NodeState n = api.state().nodes().get(r.node());
    if (c == null || n == null) {
      return;
    }
    api.putClaim(c.withRegistered(api.now(), r.node()));
    List<Taint> taints = new ArrayList<>();
    for (Taint t : n.node().taints()) {
      if (!t.sameKeyAndEffect(KarpenterLabels.UNREGISTERED)) {
        taints.add(t);
      }
    }
    for (Taint t : c.taints()) {
      if (taints.stream().noneMatch(t::sameKeyAndEffect)) {
        taints.add(t);
      }
    }
    for (Taint t : c.startupTaints()) {
      if (taints.stream().noneMatch(t::sameKeyAndEffect)) {
        taints.add(t);
      }
    }
    Labels labels = n.node().labels().withAll(c.labels()).with(KarpenterLabels.REGISTERED, "true");
    Node node = n.node().withTaints(taints).withLabels(labels);
    api.updateNode(n.withNode(node));
    api.log(RunRecord.Kind.NODECLAIM_REGISTERED, c.name(), "node " + r.node());
  }

  private void initialized(Action.MarkInitialized i) {
    NodeClaim c = api.state().claims().get(i.claim());
    if (c == null) {
      return;
    }
    api.putClaim(c.withInitialized(api.now()));
    c.nodeName().map(name -> api.state().nodes().get(name)).ifPresent(n -> api.updateNode(n.withNode(
        n.node().withLabels(n.node().labels().with(KarpenterLabels.INITIALIZED, "true")))));
    api.log(RunRecord.Kind.NODECLAIM_INITIALIZED, c.name(), "");
  }

  private void delete(Action.DeleteNodeClaim d) {
    NodeClaim c = api.state().claims().get(d.claim());
    if (c == null || c.isDeleting()) {
      return;
    }
    api.claimDeleting(c, d.reason());
    api.log(RunRecord.Kind.NODECLAIM_DELETING, c.name(), d.reason().text());
    trigger(); // its pods will need a home: the provisioner plans for pods of deleting nodes
  }

  /** The instance is terminated: the node and its pods go, then the NodeClaim. */
  private void instanceGone(NodeClaim c, String why) {
    c.nodeName().ifPresent(n -> api.removeNode(n, why));
    if (c.nodeName().isEmpty() && api.state().nodes().get(c.name()) != null) {
      api.removeNode(c.name(), why);
    }
    api.removeClaim(c.name());
  }

  private void setTaint(String node, Taint taint, boolean on) {
    NodeState n = api.state().nodes().get(node);
    if (n == null) {
      return;
    }
    List<Taint> taints = new ArrayList<>(n.node().taints());
    boolean has = taints.stream().anyMatch(taint::sameKeyAndEffect);
    if (on == has) {
      return;
    }
    if (on) {
      taints.add(taint);
    } else {
      taints.removeIf(taint::sameKeyAndEffect);
    }
    api.updateNode(n.withNode(n.node().withTaints(taints)));
    api.log(on ? RunRecord.Kind.NODE_TAINTED : RunRecord.Kind.NODE_UNTAINTED, node, taint.toString());
  }

  /** An eviction: the API consulted the PDB when Karpenter decided; the facts go to the invariants. */
  private void evict(Action.Evict e) {
    PodState p = api.state().pods().get(e.pod());
    if (p == null || p.isTerminating()) {
      return;
    }
    Pod pod = p.pod();
    List<DisruptionBudget> pdbs = ViewBuilder.pdbsFor(api.state(), pod).covering(pod);
    Optional<String> pdb = pdbs.size() == 1 ? Optional.of(pdbs.getFirst().pdb().meta().key()) : Optional.empty();
    int allowed = pdbs.size() == 1 ? pdbs.getFirst().disruptionsAllowed() : Integer.MAX_VALUE;
    api.evicting(new Eviction(pod.key(), e.forced(), pdb, allowed,
        DoNotDisrupt.active(pod, p.bound(), api.now())));
    api.metrics().eviction(e.reason().text());
    api.deletePod(pod.key(), RunRecord.Kind.POD_EVICTED, e.gracePeriod()
        .map(g -> "force-deleted with " + g.getSeconds() + "s of grace, the node's remaining grace (")
        .orElse("evicted (") + e.reason().text() + ") from " + e.node(), e.gracePeriod());
  }

  private void execute(DisruptionCommand c) {
    api.executeDisruption(c);
    api.log(RunRecord.Kind.DISRUPTION_EXECUTED, c.id(), c.describe());
    for (String name : c.candidates()) {
      api.state().claim(name).flatMap(NodeClaim::nodeName).ifPresent(n -> setTaint(n, KarpenterLabels.DISRUPTED, true));
    }
    for (NodeClaim r : c.replacements()) {
      launch(new Action.LaunchNodeClaim(r, List.of(), Optional.of(c.id()), List.of()));
    }
    apply(karpenter().progress(api.state().executing().get(c.id()), view()), Optional.empty());
    if (api.state().executing().get(c.id()) != null && !api.state().executing().get(c.id()).command().replacements()
        .isEmpty()) {
      api.requestKarpenter();
    }
  }

  /** Once its candidates are deleting, an executed command is done. */
  void retireFinishedCommands() {
    for (InFlightDisruption d : api.state().executing().values()) {
      boolean allDeleting = true;
      for (String name : d.command().candidates()) {
        NodeClaim c = api.state().claims().get(name);
        if (c != null && !c.isDeleting()) {
          allDeleting = false;
        }
      }
      if (allDeleting) {
        api.retireDisruption(d.command().id());
      }
    }
  }
}
