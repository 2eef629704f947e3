package io.gpufleet.autoscaler.interruption;

import io.gpufleet.autoscaler.action.Action;
import io.gpufleet.autoscaler.action.RemovalReason;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.karpenter.NodeClaim;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The AWS provider's interruption controller (reference §1.7), as {@code handleNodeClaim} in
 * {@code A:pkg/controllers/interruption/utils.go} does it: every message first records its event
 * ({@code notifyForMessage}); a spot interruption warning also keeps that spot offering out of
 * launches for three minutes; scheduled changes, spot interruptions and state changes cordon and
 * drain (the NodeClaim is deleted, and {@code TerminatingOnInterruption} is recorded unless it was
 * already deleting); failed status checks terminate forcefully (upstream sets the NodeClaim's
 * termination timestamp to now, so nothing waits: here the instance is terminated at once); a
 * rebalance recommendation is only an event. Nothing makes the drain finish within the two-minute
 * warning. The events' reasons and messages are {@code A:pkg/controllers/interruption/events/events.go}.
 */
public final class InterruptionHandler {
  private InterruptionHandler() {}

  public static List<Action> handle(InterruptionMessage message, ClusterView view) {
    List<Action> out = new ArrayList<>();
    Optional<StateNode> node = view.node(message.node());
    if (node.isEmpty() || node.get().claim().isEmpty()) {
      return out;
    }
    NodeClaim c = node.get().claim().get();
    out.add(event(c, message.kind()));
    if (message.kind() == InterruptionMessage.Kind.SPOT_INTERRUPTED && c.offering().capacityType() == CapacityType.SPOT) {
      out.add(new Action.MarkOfferingUnavailable(c.instanceType().name(), CapacityType.SPOT, c.offering().zone(),
          view.now().plus(OfferingAvailability.TTL)));
    }
    switch (message.kind()) {
      case SPOT_INTERRUPTED, SCHEDULED_CHANGE, INSTANCE_STOPPED, INSTANCE_TERMINATED -> delete(c, out);
      case INSTANCE_STATUS -> {
        delete(c, out);
        out.add(new Action.TerminateInstance(c.name()));
      }
      case REBALANCE_RECOMMENDATION -> { }
    }
    return out;
  }

  /** The event {@code notifyForMessage} publishes for the message's kind. */
  private static Action event(NodeClaim c, InterruptionMessage.Kind kind) {
    return switch (kind) {
      case SPOT_INTERRUPTED -> new Action.RecordEvent(c.name(), "SpotInterrupted",
          "Spot interruption warning was triggered");
      case REBALANCE_RECOMMENDATION -> new Action.RecordEvent(c.name(), "SpotRebalanceRecommendation",
          "Spot rebalance recommendation was triggered");
      case SCHEDULED_CHANGE, INSTANCE_STATUS -> new Action.RecordEvent(c.name(), "InstanceUnhealthy",
          "An unhealthy warning was triggered for the instance");
      case INSTANCE_STOPPED -> new Action.RecordEvent(c.name(), "InstanceStopping", "Instance is stopping");
      case INSTANCE_TERMINATED -> new Action.RecordEvent(c.name(), "InstanceTerminating", "Instance is terminating");
    };
  }

  /** {@code deleteNodeClaim}: nothing if the claim is already deleting. */
  private static void delete(NodeClaim c, List<Action> out) {
    if (c.isDeleting()) {
      return;
    }
    out.add(new Action.DeleteNodeClaim(c.name(), RemovalReason.INTERRUPTED));
    out.add(new Action.RecordEvent(c.name(), "TerminatingOnInterruption",
        "Interruption triggered termination for the NodeClaim"));
  }
}
