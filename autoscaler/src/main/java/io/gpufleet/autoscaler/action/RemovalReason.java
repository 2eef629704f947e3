package io.gpufleet.autoscaler.action;

/**
 * Why Karpenter deleted a NodeClaim: the disruption reasons (reference §1.5), expiry, interruption,
 * the liveness timeouts (reference §1.3), gpufleet's optional initialisation timeout, or a deletion
 * from outside (a user, a scenario).
 */
public enum RemovalReason {
  EMPTY("Empty"),
  UNDERUTILIZED("Underutilized"),
  DRIFTED("Drifted"),
  EXPIRED("Expired"),
  INTERRUPTED("Interrupted"),
  LAUNCH_FAILED("LaunchFailed"),
  LAUNCH_TIMEOUT("LaunchTimeout"),
  REGISTRATION_TIMEOUT("RegistrationTimeout"),
  /** gpufleet extension: Karpenter has none (reference §1.3, pain point 2). */
  INITIALIZATION_TIMEOUT("InitializationTimeout"),
  DELETED("Deleted");

  private final String text;

  RemovalReason(String text) {
    this.text = text;
  }

  public String text() {
    return text;
  }

  /** Voluntary disruptions obey budgets and PDBs while draining. */
  public boolean isVoluntary() {
    return this == EMPTY || this == UNDERUTILIZED || this == DRIFTED;
  }

  @Override
  public String toString() {
    return text;
  }
}
