package io.gpufleet.autoscaler.lifecycle;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.action.Action;
import io.gpufleet.autoscaler.action.RemovalReason;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceLabels;
import io.gpufleet.model.collect.PMap;
import io.gpufleet.model.karpenter.EC2NodeClass;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodeClassRef;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.time.KubeDuration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The NodeClaim lifecycle, liveness, expiry and drift controllers (reference §1.3, §1.5): marks
 * claims Registered when their node joins and Initialized when every check passes, deletes claims
 * that miss the launch or registration deadline (and, as a labelled gpufleet extension, the
 * initialisation deadline), expires claims at {@code expireAfter} without budgets, and marks drift.
 */
public final class NodeClaimLifecycle {

  private final AutoscalerSettings settings;
  /**
   * Each NodeClaim's drift verdict with what it was worked out from: drift is a function of the claim,
   * its NodePool (and the pool's template hash), the catalogue and the pool's node class, so while
   * those are the same objects the verdict stands and a reconcile costs the claims that changed.
   */
  private final Map<String, DriftVerdict> drift = new HashMap<>();

  /**
   * A drift verdict and its inputs, compared by identity: the template hash it was checked against is
   * read from the list of NodePools, so the same list gives the same hash.
   */
  private record DriftVerdict(NodeClaim claim, NodePool pool, List<NodePool> pools, InstanceCatalog catalog,
      EC2NodeClass nodeClass, Optional<String> reason) {

    boolean holdsFor(NodeClaim c, NodePool p, List<NodePool> ps, InstanceCatalog cat, EC2NodeClass nc) {
      return claim == c && pool == p && pools == ps && catalog == cat && nodeClass == nc;
    }
  }

  /** What {@link #reconcile(ClusterView, boolean, Map, PMap)} kept of its last call; null before one. */
  private Follow follow;

  /**
   * Each claim's last answer, by what makes it worth working out again: an action (asked again each
   * call, as a walk over every claim would), a deadline, or drift not checked.
   */
  private static final class Follow {
    PMap<String, StateNode> claimNodes;
    /** The NodePools, catalogue and node classes of the last call that checked drift. */
    List<NodePool> driftPools;
    InstanceCatalog driftCatalog;
    Map<String, EC2NodeClass> driftClasses;
    final Set<String> acting = new HashSet<>();
    final Set<String> unchecked = new HashSet<>();
    final TreeMap<Instant, Set<String>> dues = new TreeMap<>();
    final Map<String, Instant> dueOf = new HashMap<>();

    /** {@code driftChecked}: false when the answer would be the drift verdict but drift was not checked. */
    void note(String name, List<Action> actions, Optional<Instant> due, boolean driftChecked) {
      forget(name);
      if (!actions.isEmpty()) {
        acting.add(name);
      }
      if (!driftChecked) {
        unchecked.add(name); // its answer is its drift verdict, not worked out: asked again when drift is
      }
      if (due.isPresent()) {
        dueOf.put(name, due.get());
        dues.computeIfAbsent(due.get(), t -> new HashSet<>()).add(name);
      }
    }

    void forget(String name) {
      acting.remove(name);
      unchecked.remove(name);
      Instant t = dueOf.remove(name);
      if (t != null) {
        Set<String> at = dues.get(t);
        at.remove(name);
        if (at.isEmpty()) {
          dues.remove(t);
        }
      }
    }

    void noteDriftInputs(ClusterView view, Map<String, EC2NodeClass> nodeClasses, boolean checkDrift) {
      if (checkDrift) {
        driftPools = view.nodePools();
        driftCatalog = view.catalog();
        driftClasses = nodeClasses;
      }
    }
  }

  public NodeClaimLifecycle(AutoscalerSettings settings) {
    this.settings = settings;
  }

  public List<Action> reconcile(ClusterView view) {
    return reconcile(view, true);
  }

  /**
   * The cloud refused to launch a NodeClaim for want of capacity: Karpenter records
   * {@code InsufficientCapacityError} on it and deletes it, and the AWS provider keeps the offering
   * out of launches for three minutes, so the pods, still pending, get another offering in the next
   * round ({@code K:pkg/controllers/nodeclaim/lifecycle/launch.go} launchNodeClaim and
   * {@code events.go} InsufficientCapacityErrorEvent; {@code A:pkg/providers/instance/instance.go}
   * MarkUnavailableForFleetErr). The claim never launched, so there is nothing to drain.
   */
  public static List<Action> insufficientCapacity(NodeClaim claim, String error, Instant now) {
    return List.of(
        new Action.RecordEvent(claim.name(), "InsufficientCapacityError", "NodeClaim " + claim.name() + " event: "
            + error),
        new Action.MarkOfferingUnavailable(claim.instanceType().name(), claim.offering().capacityType(),
            claim.offering().zone(), now.plus(OfferingAvailability.TTL)));
  }

  /**
   * As {@link #reconcile(ClusterView)}; {@code checkDrift} false skips drift detection, for a runtime
   * that knows neither the NodePools nor the catalogue changed since it last checked.
   */
  public List<Action> reconcile(ClusterView view, boolean checkDrift) {
    return reconcile(view, checkDrift, Map.of());
  }

  /**
   * As {@link #reconcile(ClusterView, boolean)}, with the EC2NodeClasses by name, so that a claim
   * also drifts when its node class does ({@link EC2NodeClass#driftReason}).
   */
  public List<Action> reconcile(ClusterView view, boolean checkDrift, Map<String, EC2NodeClass> nodeClasses) {
    follow = null; // no index of the claims' state nodes: what is kept for reconcile(.., claimNodes) is stale
    return walk(view, checkDrift, nodeClasses, false);
  }

  /**
   * As {@link #reconcile(ClusterView, boolean, Map)}, for a runtime that also hands over every
   * NodeClaim's state node in {@code view} by the claim's name, one state node a claim, as a
   * {@link PMap} of one lineage from call to call. Then a reconcile works out again only the claims
   * whose state node is another object since the last call ({@link PMap#diff}), whose last answer
   * was an action, whose deadline (launch, registration, initialisation, expiry) fell due, or, when
   * drift is checked, whose drift was not checked; a claim's answer reads nothing else but the
   * NodePools, the catalogue and the node classes, and while drift is checked against other ones
   * than last time every claim is worked out again. The actions come in the view's order.
   */
  public List<Action> reconcile(ClusterView view, boolean checkDrift, Map<String, EC2NodeClass> nodeClasses,
      PMap<String, StateNode> claimNodes) {
    return reconcile(view, checkDrift, nodeClasses, claimNodes, view::ofClaims);
  }

  /**
   * As {@link #reconcile(ClusterView, boolean, Map, PMap)}, with {@code inViewOrder} giving the state
   * nodes of some NodeClaims in the view's order (a runtime that knows where each is in the list then
   * orders the few claims that act without a walk over the fleet).
   */
  public List<Action> reconcile(ClusterView view, boolean checkDrift, Map<String, EC2NodeClass> nodeClasses,
      PMap<String, StateNode> claimNodes, Function<Set<String>, List<StateNode>> inViewOrder) {
    boolean sameDriftInputs = follow != null && follow.driftPools == view.nodePools()
        && follow.driftCatalog == view.catalog() && follow.driftClasses == nodeClasses;
    if (follow == null || checkDrift && !sameDriftInputs) {
      follow = new Follow();
      List<Action> out = walk(view, checkDrift, nodeClasses, true);
      follow.claimNodes = claimNodes;
      follow.noteDriftInputs(view, nodeClasses, checkDrift);
      return out;
    }
    Follow f = follow;
    Set<String> again = new HashSet<>();
    f.claimNodes.diff(claimNodes, (name, before, after) -> {
      if (after == null) {
        f.forget(name);
        drift.remove(name);
      } else {
        again.add(name);
      }
    });
    f.claimNodes = claimNodes;
    again.addAll(f.acting);
    Instant now = view.now();
    for (var due = f.dues.headMap(now, true).entrySet().iterator(); due.hasNext(); ) {
      again.addAll(due.next().getValue());
    }
    if (checkDrift) {
      again.addAll(f.unchecked);
    }
    Map<String, String> hashes = checkDrift ? hashes(view) : Map.of();
    Map<StateNode, List<Action>> acts = new IdentityHashMap<>();
    for (String name : again) {
      StateNode n = claimNodes.get(name);
      List<Action> a = new ArrayList<>(2);
      Optional<Instant> due = claimActions(n, n.claim().get(), view, checkDrift, hashes, nodeClasses, a);
      f.note(name, a, due, checkDrift || !reachesDrift(n.claim().get(), now));
      if (!a.isEmpty()) {
        acts.put(n, a);
      }
    }
    f.noteDriftInputs(view, nodeClasses, checkDrift);
    if (acts.size() == 1) {
      return acts.values().iterator().next();
    }
    List<Action> out = new ArrayList<>();
    if (!acts.isEmpty()) {
      Set<String> acting = new HashSet<>();
      for (StateNode n : acts.keySet()) {
        acting.add(n.claim().get().name());
      }
      for (StateNode n : inViewOrder.apply(acting)) { // the view's order, as a walk over every claim gives them
        List<Action> a = acts.get(n);
        if (a != null) {
          out.addAll(a);
        }
      }
    }
    return out;
  }

  /** Works out every claim of the view, in its order; {@code keep}: remembers each one's answer in {@link #follow}. */
  private List<Action> walk(ClusterView view, boolean checkDrift, Map<String, EC2NodeClass> nodeClasses,
      boolean keep) {
    List<Action> out = new ArrayList<>();
    Map<String, String> hashes = hashes(view);
    for (StateNode n : view.nodes()) {
      if (n.claim().isEmpty()) {
        continue;
      }
      NodeClaim c = n.claim().get();
      int from = out.size();
      Optional<Instant> due = claimActions(n, c, view, checkDrift, hashes, nodeClasses, out);
      if (keep) {
        follow.note(c.name(), out.subList(from, out.size()), due, checkDrift || !reachesDrift(c, view.now()));
      }
    }
    if (drift.size() > 2 * view.nodes().size() + 64) {
      drift.clear(); // verdicts of claims long gone
    }
    return out;
  }

  private static Map<String, String> hashes(ClusterView view) {
    Map<String, String> hashes = new HashMap<>();
    for (NodePool p : view.nodePools()) {
      hashes.put(p.name(), p.templateHash());
    }
    return hashes;
  }

  /** Whether a claim's answer, at {@code now}, is its drift verdict (it got past every deadline check). */
  private static boolean reachesDrift(NodeClaim c, Instant now) {
    return !c.isDeleting() && c.isInitialized() && (c.expiresAt().isEmpty() || now.isBefore(c.expiresAt().get()));
  }

  /**
   * Adds one claim's actions to {@code out}; answers the time until which, the state node, NodePools,
   * catalogue and node classes the same, the answer stays what it is (empty: for good).
   */
  private Optional<Instant> claimActions(StateNode n, NodeClaim c, ClusterView view, boolean checkDrift,
      Map<String, String> hashes, Map<String, EC2NodeClass> nodeClasses, List<Action> out) {
    Instant now = view.now();
    if (c.isDeleting()) {
      return Optional.empty();
    }
    if (!c.isLaunched()) {
      Instant due = c.created().plus(settings.launchTimeout());
      if (!now.isBefore(due)) {
        out.add(new Action.DeleteNodeClaim(c.name(), RemovalReason.LAUNCH_TIMEOUT));
      }
      return Optional.of(due);
    }
    if (!c.isRegistered()) {
      Instant due = c.created().plus(settings.registrationTimeout());
      if (n.node().isPresent()) {
        out.add(new Action.MarkRegistered(c.name(), n.node().get().name()));
      } else if (!now.isBefore(due)) {
        out.add(new Action.DeleteNodeClaim(c.name(), RemovalReason.REGISTRATION_TIMEOUT));
      }
      return Optional.of(due);
    }
    if (!c.isInitialized()) {
      Optional<String> blocker = n.node().map(node -> initializationBlocker(c, node)).orElse(Optional.of(
          "NodeNotFound"));
      Optional<Instant> due = settings.initializationTimeout().map(t -> c.registered().get().plus(t));
      if (blocker.isEmpty()) {
        out.add(new Action.MarkInitialized(c.name()));
      } else if (due.isPresent() && !now.isBefore(due.get())) {
        out.add(new Action.RecordEvent(c.name(), "InitializationTimeout", "gpufleet extension: not initialized "
            + "within " + KubeDuration.format(settings.initializationTimeout().get()) + " of registration: " + blocker.get()));
        out.add(new Action.DeleteNodeClaim(c.name(), RemovalReason.INITIALIZATION_TIMEOUT));
      }
      return due;
    }
    if (c.expiresAt().isPresent() && !now.isBefore(c.expiresAt().get())) {
      out.add(new Action.DeleteNodeClaim(c.name(), RemovalReason.EXPIRED));
      return c.expiresAt();
    }
    Optional<NodePool> pool = view.nodePool(c.nodePool());
    if (checkDrift && pool.isPresent() && c.drifted().isEmpty()) {
      driftMemoised(c, pool.get(), hashes, view, nodeClasses).ifPresent(r -> out.add(new Action.MarkDrifted(c.name(), r)));
    }
    return c.expiresAt();
  }

  /**
   * {@link #driftReason} with the pool's template hash from {@code hashes} (the view's NodePools'),
   * worked out again only when one of its inputs is another object.
   */
  private Optional<String> driftMemoised(NodeClaim c, NodePool pool, Map<String, String> hashes, ClusterView view,
      Map<String, EC2NodeClass> nodeClasses) {
    NodeClassRef ref = pool.template().nodeClassRef();
    EC2NodeClass nodeClass = ref.kind().equals("EC2NodeClass") ? nodeClasses.get(ref.name()) : null;
    DriftVerdict v = drift.get(c.name());
    if (v != null && v.holdsFor(c, pool, view.nodePools(), view.catalog(), nodeClass)) {
      return v.reason();
    }
    Optional<String> reason = driftReason(c, pool, hashes.get(pool.name()), view, nodeClasses);
    drift.put(c.name(), new DriftVerdict(c, pool, view.nodePools(), view.catalog(), nodeClass, reason));
    return reason;
  }

  /**
   * Why a registered claim's node is not initialised yet, in Karpenter's order and words
   * ({@code K:pkg/controllers/nodeclaim/lifecycle/initialization.go}, reference §1.3); empty when it is.
   */
  public static Optional<String> initializationBlocker(NodeClaim claim, Node node) {
    for (Taint t : node.taints()) {
      if (t.key().equals("node.kubernetes.io/not-ready")) {
        return Optional.of("NodeNotReady");
      }
    }
    for (Taint startup : claim.startupTaints()) {
      if (node.taints().stream().anyMatch(startup::sameKeyAndEffect)) {
        return Optional.of("StartupTaintsExist");
      }
    }
    for (Taint t : node.taints()) {
      if (StateNode.isEphemeral(t)) {
        return Optional.of("KnownEphemeralTaintsExist");
      }
    }
    for (var e : claim.requests().quantities().entrySet()) {
      ResourceName r = e.getKey();
      if (!e.getValue().isZero() && !r.equals(ResourceName.PODS)
          && node.allocatable().getOrZero(r).compareTo(Quantity.ZERO) <= 0) {
        return Optional.of("Resource \"" + r + "\" was requested but not registered");
      }
    }
    return Optional.empty();
  }

  /**
   * Drift (reference §1.5): the NodePool template changed since launch ({@code NodePoolDrifted}), the
   * claim's labels no longer meet the NodePool's requirements ({@code RequirementsDrifted}), or its
   * instance type left the catalogue ({@code InstanceTypeNotFound}); then what the cloud provider
   * says ({@code K:pkg/controllers/nodeclaim/disruption/drift.go} isDrifted asks
   * {@code cloudProvider.IsDrifted} last): the claim's EC2NodeClass changed its static fields
   * ({@code NodeClassDrift}) or resolves to another AMI ({@code AMIDrift}). A class not applied
   * (Karpenter's defaults) drifts nothing, as upstream cannot resolve it.
   */
  static Optional<String> driftReason(NodeClaim c, NodePool pool, String templateHash, ClusterView view,
      Map<String, EC2NodeClass> nodeClasses) {
    if (!c.nodePoolHash().equals(templateHash)) {
      return Optional.of("NodePoolDrifted");
    }
    for (NodePoolRequirement r : pool.template().requirements()) {
      if (r.key().equals(InstanceLabels.HOSTNAME)) {
        continue;
      }
      if (!r.toSelectorRequirement().matches(c.labels())) {
        return Optional.of("RequirementsDrifted");
      }
    }
    if (!c.labels().get(KarpenterLabels.NODEPOOL).map(pool.name()::equals).orElse(false)) {
      return Optional.of("RequirementsDrifted");
    }
    if (view.catalog().find(c.instanceType().name()).isEmpty()) {
      return Optional.of("InstanceTypeNotFound");
    }
    NodeClassRef ref = pool.template().nodeClassRef();
    EC2NodeClass nodeClass = ref.kind().equals("EC2NodeClass") ? nodeClasses.get(ref.name()) : null;
    return nodeClass == null ? Optional.empty() : nodeClass.driftReason(c);
  }
}
