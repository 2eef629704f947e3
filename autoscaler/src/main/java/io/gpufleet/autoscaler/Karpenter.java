package io.gpufleet.autoscaler;

import io.gpufleet.model.cloud.Money;
import io.gpufleet.autoscaler.action.Action;
import io.gpufleet.autoscaler.action.RemovalReason;
import io.gpufleet.autoscaler.disruption.ConsolidationRefusal;
import io.gpufleet.autoscaler.disruption.DisruptionCommand;
import io.gpufleet.autoscaler.disruption.DisruptionController;
import io.gpufleet.autoscaler.disruption.InFlightDisruption;
import io.gpufleet.autoscaler.interruption.InterruptionHandler;
import io.gpufleet.autoscaler.interruption.InterruptionMessage;
import io.gpufleet.autoscaler.lifecycle.NodeClaimLifecycle;
import io.gpufleet.autoscaler.provisioning.Launcher;
import io.gpufleet.autoscaler.provisioning.PlannedClaim;
import io.gpufleet.autoscaler.provisioning.Provisioner;
import io.gpufleet.autoscaler.provisioning.ProvisioningModel;
import io.gpufleet.autoscaler.provisioning.ProvisioningPlan;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.termination.CurrentlyReschedulable;
import io.gpufleet.autoscaler.termination.Termination;
import io.gpufleet.model.collect.PMap;
import io.gpufleet.model.karpenter.EC2NodeClass;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.pod.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;

/**
 * Karpenter as a set of pure decisions over a {@link ClusterView}: provisioning, the NodeClaim
 * lifecycle, disruption, termination and interruption. It reads no clock (the view carries the time)
 * and changes nothing: every method returns {@link Action}s for the runtime to apply.
 */
public final class Karpenter {

  /** How soon a pending pod is looked at again ({@code K:pkg/controllers/provisioning/controller.go}: 10 s). */
  public static final Duration POD_REQUEUE = Duration.ofSeconds(10);

  private final AutoscalerSettings settings;
  private final Provisioner provisioner;
  private final NodeClaimLifecycle lifecycle;
  private final DisruptionController disruption;

  public Karpenter(AutoscalerSettings settings, ProvisioningModel model) {
    this.settings = settings;
    this.provisioner = new Provisioner(model);
    this.lifecycle = new NodeClaimLifecycle(settings);
    this.disruption = new DisruptionController(settings, provisioner);
  }

  public AutoscalerSettings settings() {
    return settings;
  }

  public Provisioner provisioner() {
    return provisioner;
  }

  /** Whether a planned pod's key is a pending pod's, of {@code planned} pods the pending ones lead. */
  private static Predicate<String> pendingKeys(List<Pod> pendingPods, int planned) {
    if (pendingPods.size() == planned) {
      return key -> true;
    }
    Set<String> keys = new HashSet<>();
    for (Pod p : pendingPods) {
      keys.add(p.key());
    }
    return keys::contains;
  }

  /**
   * One provisioning round after a batch window closes (reference §1.4): plans capacity for pending
   * pods and for the pods of nodes being deleted that can move now, launches new NodeClaims, nominates pods to in-flight
   * nodes, and records Karpenter's {@code FailedScheduling} for pods nothing can host (pods with DRA
   * claims among them, unless gpufleet's DRA sizing placed them, which is recorded too).
   */
  public List<Action> provision(ClusterView view, RandomGenerator random) {
    return provision(view, deleting(view), random);
  }

  /** The view's deleting nodes ({@link StateNode#isDeleting}), in its order: a walk over the nodes. */
  public static List<StateNode> deleting(ClusterView view) {
    List<StateNode> out = new ArrayList<>();
    for (StateNode n : view.nodes()) {
      if (n.isDeleting()) {
        out.add(n);
      }
    }
    return out;
  }

  /**
   * As {@link #provision(ClusterView, RandomGenerator)}, given the view's deleting nodes in its order
   * ({@link #deleting}), for a runtime that knows them without a walk over the fleet.
   */
  public List<Action> provision(ClusterView view, List<StateNode> deleting, RandomGenerator random) {
    List<Pod> pods = new ArrayList<>(view.pendingPods());
    for (StateNode n : deleting) {
      // Only pods that can move now: no capacity for one that do-not-disrupt or a fully blocking PDB
      // holds ({@code K:pkg/controllers/provisioning/provisioner.go} Schedule:
      // nodes.Deleting().CurrentlyReschedulablePods).
      pods.addAll(CurrentlyReschedulable.pods(n, view.pdbs(), view.now()));
    }
    List<Action> out = new ArrayList<>();
    if (pods.isEmpty() || view.nodePools().isEmpty()) {
      return out;
    }
    ProvisioningPlan plan = provisioner.solve(pods, view.nodes(), view.daemonSets(), view.offerings(), view.now());
    // Events are recorded for pending pods only, not for those of deleting nodes planned beside them;
    // when there are none of those, every pod planned is pending and no set of keys is made.
    Predicate<String> pending = pendingKeys(view.pendingPods(), pods.size());
    OfferingAvailability offerings = view.offerings();
    boolean deferred = false;
    for (PlannedClaim p : plan.newClaims()) {
      // The provisioner's strict reserved-offering mode (K:pkg/controllers/provisioning/provisioner.go
      // DisableReservedCapacityFallback; scheduling/nodeclaim.go offeringsToReserve): a claim whose
      // compatible reservations earlier claims of this round took fails for now, with no event
      // (scheduler.go Results.Record), and falls back in a later round.
      if (Launcher.reservedAvailable(p, view.offerings(), view.now())
          && !Launcher.reservedAvailable(p, offerings, view.now())) {
        deferred = true;
        continue;
      }
      Optional<NodeClaim> claim = Launcher.launch(p, offerings, view.now(), random);
      if (claim.isPresent() && claim.get().offering().reservationId().isPresent()) {
        offerings = offerings.withReservationTaken(claim.get().offering().reservationId().get());
      }
      if (claim.isPresent()) {
        out.add(new Action.LaunchNodeClaim(claim.get(), p.pods().stream().map(Pod::key).toList(), Optional.empty(),
            p.instanceTypes().stream().map(t -> t.name() + " " + Money.perHour(t.onDemandPrice())).toList()));
      }
    }
    if (deferred) {
      // The pod controller requeues a provisionable pod every 10 s (K:pkg/controllers/provisioning/controller.go).
      out.add(new Action.RetryProvisioning(POD_REQUEUE));
    }
    for (Map.Entry<String, String> e : plan.onExisting().entrySet()) {
      if (pending.test(e.getKey())) {
        Optional<StateNode> n = view.node(e.getValue());
        if (n.isPresent() && !n.get().isInitialized()) {
          out.add(new Action.RecordEvent(e.getKey(), "Nominated", "Pod should schedule on: nodeclaim/"
              + n.get().claim().get().name()));
        }
      }
    }
    for (Map.Entry<String, String> e : plan.errors().entrySet()) {
      if (pending.test(e.getKey())) {
        out.add(new Action.RecordEvent(e.getKey(), "FailedScheduling", e.getValue()));
      }
    }
    // Said per pod, so a run shows which of Karpenter's refusal and the twin's sizing happened.
    for (Map.Entry<String, String> e : plan.draSized().entrySet()) {
      if (pending.test(e.getKey())) {
        out.add(new Action.RecordEvent(e.getKey(), "SizedByExtension", "draRequests: allocate (gpufleet extension): "
            + e.getValue() + "; Karpenter, with its default --ignore-dra-requests, does not provision for this pod"));
      }
    }
    return out;
  }

  /** Registration, initialisation, liveness, expiry and drift (reference §1.3, §1.5). */
  public List<Action> lifecycle(ClusterView view) {
    return lifecycle.reconcile(view);
  }

  /** As {@link #lifecycle(ClusterView)}, skipping drift detection when nothing it reads has changed. */
  public List<Action> lifecycle(ClusterView view, boolean checkDrift) {
    return lifecycle.reconcile(view, checkDrift);
  }

  /** As {@link #lifecycle(ClusterView, boolean)}, with the EC2NodeClasses, whose changes drift their nodes too. */
  public List<Action> lifecycle(ClusterView view, boolean checkDrift, Map<String, EC2NodeClass> nodeClasses) {
    return lifecycle.reconcile(view, checkDrift, nodeClasses);
  }

  /**
   * As {@link #lifecycle(ClusterView, boolean, Map)}, with every NodeClaim's state node by its name, so
   * that a reconcile costs the claims that changed ({@link NodeClaimLifecycle#reconcile(ClusterView,
   * boolean, Map, PMap)}).
   */
  public List<Action> lifecycle(ClusterView view, boolean checkDrift, Map<String, EC2NodeClass> nodeClasses,
      PMap<String, StateNode> claimNodes) {
    return lifecycle.reconcile(view, checkDrift, nodeClasses, claimNodes);
  }

  /** As above, with the state nodes of some NodeClaims in the view's order ({@link NodeClaimLifecycle}). */
  public List<Action> lifecycle(ClusterView view, boolean checkDrift, Map<String, EC2NodeClass> nodeClasses,
      PMap<String, StateNode> claimNodes, Function<Set<String>, List<StateNode>> inViewOrder) {
    return lifecycle.reconcile(view, checkDrift, nodeClasses, claimNodes, inViewOrder);
  }

  /** A launch the cloud refused for want of capacity ({@link NodeClaimLifecycle#insufficientCapacity}). */
  public List<Action> launchFailed(NodeClaim claim, String error, Instant now) {
    return NodeClaimLifecycle.insufficientCapacity(claim, error, now);
  }

  /** The next disruption to propose (reference §1.5). */
  public Optional<DisruptionCommand> disrupt(ClusterView view, RandomGenerator random) {
    return disruption.poll(view, random);
  }

  /** Why consolidation leaves each node it could act on, by NodeClaim (Karpenter's Unconsolidatable and DisruptionBlocked events). */
  public SortedMap<String, ConsolidationRefusal> unconsolidatable(ClusterView view) {
    return disruption.unconsolidatable(view);
  }

  /** What changed in {@link #unconsolidatable} since the last call ({@link DisruptionController#unconsolidatableChanges}). */
  public DisruptionController.RefusalChanges unconsolidatableChanges(ClusterView view) {
    return disruption.unconsolidatableChanges(view);
  }

  /** When a quiet poll's answer may next change, before {@code limit} ({@link DisruptionController#nextConsolidatableChange}). */
  public Instant nextConsolidatableChange(ClusterView view, Instant limit) {
    return disruption.nextConsolidatableChange(view, limit);
  }

  public Object disruptionQuiescenceKey(ClusterView view) {
    return disruption.quiescenceKey(view);
  }

  public DisruptionController.Validation validate(DisruptionCommand command, ClusterView view,
      RandomGenerator random) {
    return disruption.validate(command, view, random);
  }

  public List<Action> progress(InFlightDisruption inFlight, ClusterView view) {
    return disruption.progress(inFlight, view);
  }

  /** Drains deleting NodeClaims and terminates their instances when done (reference §1.8). */
  public List<Action> terminate(ClusterView view, Function<String, RemovalReason> reasonOf) {
    return Termination.reconcile(view, reasonOf);
  }

  /** As {@link #terminate(ClusterView, Function)}, given the view's state nodes (in its order) of every deleting NodeClaim. */
  public List<Action> terminate(ClusterView view, List<StateNode> deleting, Function<String, RemovalReason> reasonOf) {
    return Termination.reconcile(view, deleting, reasonOf);
  }

  /** Handles an interruption-queue message (reference §1.7). */
  public List<Action> interrupt(InterruptionMessage message, ClusterView view) {
    return InterruptionHandler.handle(message, view);
  }
}
