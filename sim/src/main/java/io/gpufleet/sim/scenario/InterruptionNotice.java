package io.gpufleet.sim.scenario;

import io.gpufleet.autoscaler.interruption.InterruptionMessage;
import java.util.Optional;

/**
 * The notices EC2 and AWS Health send about an instance that the AWS provider's interruption queue
 * receives ({@code A:pkg/controllers/interruption/messages/*}), as a scenario writes them: the kind and,
 * for a state change, the state ({@code A:.../messages/statechange/model.go}: {@code stopping} and
 * {@code stopped} are an instance stopped, {@code shutting-down} and {@code terminated} one terminated).
 */
public enum InterruptionNotice {
  SPOT_INTERRUPTION("spotInterruption", Optional.empty(), InterruptionMessage.Kind.SPOT_INTERRUPTED),
  REBALANCE_RECOMMENDATION("rebalanceRecommendation", Optional.empty(),
      InterruptionMessage.Kind.REBALANCE_RECOMMENDATION),
  SCHEDULED_CHANGE("scheduledChange", Optional.empty(), InterruptionMessage.Kind.SCHEDULED_CHANGE),
  STOPPING("stateChange", Optional.of("stopping"), InterruptionMessage.Kind.INSTANCE_STOPPED),
  STOPPED("stateChange", Optional.of("stopped"), InterruptionMessage.Kind.INSTANCE_STOPPED),
  SHUTTING_DOWN("stateChange", Optional.of("shutting-down"), InterruptionMessage.Kind.INSTANCE_TERMINATED),
  TERMINATED("stateChange", Optional.of("terminated"), InterruptionMessage.Kind.INSTANCE_TERMINATED);

  private final String kind;
  private final Optional<String> state;
  private final InterruptionMessage.Kind message;

  InterruptionNotice(String kind, Optional<String> state, InterruptionMessage.Kind message) {
    this.kind = kind;
    this.state = state;
    this.message = message;
  }

  /** The scenario's {@code kind}. */
  public String kind() {
    return kind;
  }

  /** The scenario's {@code state}, for a state change. */
  public Optional<String> state() {
    return state;
  }

  /** The message Karpenter's queue receives. */
  public InterruptionMessage.Kind message() {
    return message;
  }

  /**
   * Whether EC2 sends it only for spot instances: the spot interruption warning and the rebalance
   * recommendation are signals about Spot capacity (EC2 user guide, "Spot Instance interruption
   * notices" and "EC2 instance rebalance recommendations"); an on-demand or reserved instance never
   * gets one.
   */
  public boolean spotOnly() {
    return this == SPOT_INTERRUPTION || this == REBALANCE_RECOMMENDATION;
  }

  /** Whether the instance itself goes (EC2 stops or terminates it) as the notice is sent. */
  public boolean instanceGoes() {
    return state.isPresent();
  }

  /** How a run record names it: the kind and the state, if any. */
  public String describe() {
    return kind + state.map(s -> " (" + s + ")").orElse("");
  }
}
