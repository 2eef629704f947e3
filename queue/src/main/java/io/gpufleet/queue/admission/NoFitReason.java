package io.gpufleet.queue.admission;

/**
 * The QuotaReserved reasons of a workload that does not fit, by severity
 * ({@code flavorassigner.reasonSeverity}; values from {@code apis/kueue/v1beta2/workload_types.go}).
 */
final class NoFitReason {

  static final String NO_MATCHING_FLAVOR = "NoMatchingFlavor";
  static final String EXCEEDS_MAX_QUOTA = "ExceedsMaxQuota";
  static final String WAITING_FOR_QUOTA = "WaitingForQuota";
  static final String TOPOLOGY_PLACEMENT_FAILED = TasAssigner.TOPOLOGY_PLACEMENT_FAILED;

  private NoFitReason() {}

  static int severity(String reason) {
    return switch (reason) {
      case NO_MATCHING_FLAVOR -> 4;
      case EXCEEDS_MAX_QUOTA -> 3;
      case WAITING_FOR_QUOTA -> 2;
      case TOPOLOGY_PLACEMENT_FAILED -> 1;
      default -> 0;
    };
  }

  /** {@code mostSevereReason}: {@code a} on a tie. */
  static String mostSevere(String a, String b) {
    return severity(a) >= severity(b) ? a : b;
  }
}
