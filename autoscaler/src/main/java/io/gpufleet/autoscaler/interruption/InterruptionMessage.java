package io.gpufleet.autoscaler.interruption;

import java.util.Objects;

/**
 * A message from the interruption queue about one instance (reference §1.7), named by the node it
 * backs.
 */
public record InterruptionMessage(Kind kind, String node) {

  /**
   * The message kinds of the AWS provider's interruption controller and what each asks for
   * ({@code A:pkg/controllers/interruption/messages/types.go}; the action per kind is
   * {@code actionForMessage} in {@code A:pkg/controllers/interruption/utils.go}).
   */
  public enum Kind {
    /** EC2 Spot Interruption Warning, two minutes before reclaim: cordon and drain, mark the offering. */
    SPOT_INTERRUPTED,
    /** AWS Health scheduled change (e.g. instance retirement): cordon and drain. */
    SCHEDULED_CHANGE,
    /** EC2 state change to {@code stopping} or {@code stopped}: cordon and drain. */
    INSTANCE_STOPPED,
    /** EC2 state change to {@code shutting-down} or {@code terminated}: cordon and drain. */
    INSTANCE_TERMINATED,
    /** Failed instance or system status checks: forceful termination. */
    INSTANCE_STATUS,
    /** EC2 rebalance recommendation: an event, no action. */
    REBALANCE_RECOMMENDATION
  }

  public InterruptionMessage {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(node, "node");
  }
}
