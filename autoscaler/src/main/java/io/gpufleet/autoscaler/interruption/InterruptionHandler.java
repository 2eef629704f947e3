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
 * The AWS provider's interruption controller (reference §1.7): a spot interruption warning deletes
 * the NodeClaim (cordon and drain through the termination controller) and keeps that spot offering
 * out of launches for three minutes; other state changes cordon and drain; rebalance
 * recommendations do nothing. Nothing makes the drain finish within the two-minute warning.
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
    switch (message.kind()) {
      case SPOT_INTERRUPTED -> {
        out.add(new Action.RecordEvent(c.name(), "SpotInterrupted", "Spot interruption warning was triggered"));
        if (!c.isDeleting()) {
          out.add(new Action.DeleteNodeClaim(c.name(), RemovalReason.INTERRUPTED));
        }
        if (c.offering().capacityType() == CapacityType.SPOT) {
          out.add(new Action.MarkOfferingUnavailable(c.instanceType().name(), CapacityType.SPOT, c.offering().zone(),
              view.now().plus(OfferingAvailability.TTL)));
        }
      }
      case SCHEDULED_CHANGE, INSTANCE_STOPPED -> {
        if (!c.isDeleting()) {
          out.add(new Action.DeleteNodeClaim(c.name(), RemovalReason.INTERRUPTED));
        }
      }
      case INSTANCE_STATUS -> {
        // Forceful termination: the termination timestamp skips the graceful drain.
        if (!c.isDeleting()) {
          out.add(new Action.DeleteNodeClaim(c.name(), RemovalReason.INTERRUPTED));
        }
        out.add(new Action.TerminateInstance(c.name()));
      }
      case REBALANCE_RECOMMENDATION -> out.add(new Action.RecordEvent(c.name(), "RebalanceRecommendation",
          "Rebalance recommendation was triggered"));
    }
    return out;
  }
}
