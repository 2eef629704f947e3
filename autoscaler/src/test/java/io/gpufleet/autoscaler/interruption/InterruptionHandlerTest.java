package io.gpufleet.autoscaler.interruption;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.action.Action;
import io.gpufleet.autoscaler.action.RemovalReason;
import io.gpufleet.autoscaler.provisioning.Launcher;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.ResourceList;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The events and actions per message kind, as {@code A:pkg/controllers/interruption/utils.go}
 * ({@code notifyForMessage}, {@code actionForMessage}, {@code deleteNodeClaim}) and
 * {@code events/events.go} have them, and the concept page's "Karpenter publishes Kubernetes events
 * to the node for all events listed above in addition to Spot Rebalance Recommendations. Karpenter
 * does not currently support taint, drain, and terminate logic for Spot Rebalance Recommendations."
 * ({@code A:website/content/en/docs/concepts/disruption.md}, Interruption).
 */
class InterruptionHandlerTest {

  static final InstanceCatalog CATALOG = InstanceCatalog.builtIn();
  static final Instant NOW = Instant.parse("2026-01-01T01:00:00Z");
  static final NodePool POOL = NodePool.of("default", NodeClaimTemplate.of());

  static StateNode node(CapacityType ct, boolean deleting) {
    InstanceType t = CATALOG.require("g6.xlarge");
    Offering o = t.offerings().stream().filter(x -> x.capacityType() == ct).findFirst().orElseThrow();
    NodeClaim c = Launcher.nodeClaim(POOL, t, o, ResourceList.EMPTY, NOW.minusSeconds(3600), new SplittableRandom(1));
    c = c.withLaunched(NOW).withRegistered(NOW, c.name()).withInitialized(NOW);
    if (deleting) {
      c = c.withDeletionRequested(NOW);
    }
    return new StateNode(c.name(), Optional.of(c), Optional.of(Node.of(c.name(), c.labels(), List.of(),
        t.allocatable())), List.of(), Set.of(), NOW, false, Map.of());
  }

  static List<Action> handle(InterruptionMessage.Kind kind, StateNode n) {
    ClusterView view = new ClusterView(NOW, List.of(POOL), CATALOG, OfferingAvailability.ALL, List.of(n), List.of(),
        List.of(), PdbIndex.NONE);
    return InterruptionHandler.handle(new InterruptionMessage(kind, n.name()), view);
  }

  static Action event(StateNode n, String reason, String message) {
    return new Action.RecordEvent(n.name(), reason, message);
  }

  @Test
  void aRebalanceRecommendationIsOnlyAnEvent() {
    StateNode n = node(CapacityType.SPOT, false);
    assertThat(handle(InterruptionMessage.Kind.REBALANCE_RECOMMENDATION, n)).containsExactly(
        event(n, "SpotRebalanceRecommendation", "Spot rebalance recommendation was triggered"));
  }

  @Test
  void eachDrainingKindRecordsItsEventThenDeletesTheClaimAndSaysSo() {
    StateNode n = node(CapacityType.ON_DEMAND, false);
    Map<InterruptionMessage.Kind, Action> first = Map.of(
        InterruptionMessage.Kind.SCHEDULED_CHANGE,
        event(n, "InstanceUnhealthy", "An unhealthy warning was triggered for the instance"),
        InterruptionMessage.Kind.INSTANCE_STOPPED, event(n, "InstanceStopping", "Instance is stopping"),
        InterruptionMessage.Kind.INSTANCE_TERMINATED, event(n, "InstanceTerminating", "Instance is terminating"));
    Action terminating = event(n, "TerminatingOnInterruption", "Interruption triggered termination for the NodeClaim");
    first.forEach((kind, ev) -> assertThat(handle(kind, n)).as(kind.name()).containsExactly(ev,
        new Action.DeleteNodeClaim(n.name(), RemovalReason.INTERRUPTED), terminating));
  }

  @Test
  void aSpotWarningAlsoMarksTheOfferingUnavailableForThreeMinutes() {
    StateNode n = node(CapacityType.SPOT, false);
    NodeClaim c = n.claim().orElseThrow();
    assertThat(handle(InterruptionMessage.Kind.SPOT_INTERRUPTED, n)).containsExactly(
        event(n, "SpotInterrupted", "Spot interruption warning was triggered"),
        new Action.MarkOfferingUnavailable(c.instanceType().name(), CapacityType.SPOT, c.offering().zone(),
            NOW.plus(OfferingAvailability.TTL)),
        new Action.DeleteNodeClaim(n.name(), RemovalReason.INTERRUPTED),
        event(n, "TerminatingOnInterruption", "Interruption triggered termination for the NodeClaim"));
  }

  @Test
  void aClaimAlreadyDeletingGetsTheEventButNoSecondDeletion() {
    StateNode n = node(CapacityType.ON_DEMAND, true);
    assertThat(handle(InterruptionMessage.Kind.SCHEDULED_CHANGE, n)).containsExactly(
        event(n, "InstanceUnhealthy", "An unhealthy warning was triggered for the instance"));
  }

  @Test
  void failedStatusChecksTerminateWithoutTheDrain() {
    StateNode n = node(CapacityType.ON_DEMAND, false);
    assertThat(handle(InterruptionMessage.Kind.INSTANCE_STATUS, n)).contains(
        new Action.DeleteNodeClaim(n.name(), RemovalReason.INTERRUPTED), new Action.TerminateInstance(n.name()));
  }
}
