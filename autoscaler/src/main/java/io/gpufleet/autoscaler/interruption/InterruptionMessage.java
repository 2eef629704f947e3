package io.gpufleet.autoscaler.interruption;

import java.util.Objects;

/**
 * A message from the interruption queue about one instance (reference §1.7), named by the node it
 * backs.
 */
public record InterruptionMessage(Kind kind, String node) {

  /** The message kinds of the AWS provider's interruption controller and what each asks for. */
  public enum Kind {
    /** EC2 Spot Interruption Warning, two minutes before reclaim: cordon and drain, mark the offering. */
    SPOT_INTERRUPTED,
    /** AWS Health scheduled change: cordon and drain. */
    SCHEDULED_CHANGE,
    /** Instance stopping, stopped, shutting down or terminated: cordon and drain. */
    INSTANCE_STOPPED,
    /** Failed instance or system status checks: forceful termination. */
    INSTANCE_STATUS,
    /** Rebalance recommendation: no action. */
    REBALANCE_RECOMMENDATION
  }

  public InterruptionMessage {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(node, "node");
  }
}
