package io.gpufleet.autoscaler.lifecycle;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.action.Action;
import io.gpufleet.autoscaler.action.RemovalReason;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceLabels;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
    List<Action> out = new ArrayList<>();
    Instant now = view.now();
    Map<String, String> hashes = new HashMap<>();
    for (NodePool p : view.nodePools()) {
      hashes.put(p.name(), p.templateHash());
    }
    for (StateNode n : view.nodes()) {
      if (n.claim().isEmpty()) {
        continue;
      }
      NodeClaim c = n.claim().get();
      if (c.isDeleting()) {
        continue;
      }
      if (!c.isLaunched()) {
        if (!now.isBefore(c.created().plus(settings.launchTimeout()))) {
          out.add(new Action.DeleteNodeClaim(c.name(), RemovalReason.LAUNCH_TIMEOUT));
        }
        continue;
      }
      if (!c.isRegistered()) {
        if (n.node().isPresent()) {
          out.add(new Action.MarkRegistered(c.name(), n.node().get().name()));
        } else if (!now.isBefore(c.created().plus(settings.registrationTimeout()))) {
          out.add(new Action.DeleteNodeClaim(c.name(), RemovalReason.REGISTRATION_TIMEOUT));
        }
        continue;
      }
      if (!c.isInitialized()) {
        Optional<String> blocker = n.node().map(node -> initializationBlocker(c, node)).orElse(Optional.of(
            "NodeNotFound"));
        if (blocker.isEmpty()) {
          out.add(new Action.MarkInitialized(c.name()));
        } else if (settings.initializationTimeout().isPresent()
            && !now.isBefore(c.registered().get().plus(settings.initializationTimeout().get()))) {
          out.add(new Action.RecordEvent(c.name(), "InitializationTimeout", "gpufleet extension: not initialized "
              + "within " + KubeDuration.format(settings.initializationTimeout().get()) + " of registration: " + blocker.get()));
          out.add(new Action.DeleteNodeClaim(c.name(), RemovalReason.INITIALIZATION_TIMEOUT));
        }
        continue;
      }
      Optional<NodePool> pool = view.nodePool(c.nodePool());
      if (c.expiresAt().isPresent() && !now.isBefore(c.expiresAt().get())) {
        out.add(new Action.DeleteNodeClaim(c.name(), RemovalReason.EXPIRED));
        continue;
      }
      if (checkDrift && pool.isPresent() && c.drifted().isEmpty()) {
        driftMemoised(c, pool.get(), hashes, view, nodeClasses).ifPresent(r -> out.add(new Action.MarkDrifted(c.name(), r)));
      }
    }
    if (drift.size() > 2 * view.nodes().size() + 64) {
      drift.clear(); // verdicts of claims long gone
    }
    return out;
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
