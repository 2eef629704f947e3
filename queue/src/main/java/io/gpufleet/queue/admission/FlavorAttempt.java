package io.gpufleet.queue.admission;

import java.util.List;

/**
 * A flavor tried for a pod set ({@code FlavorAssignmentAttempt}): its mode, borrowing, the reasons it
 * did not fit, and the QuotaReserved reason it stands for (NoMatchingFlavor, ExceedsMaxQuota,
 * WaitingForQuota, or empty).
 */
public record FlavorAttempt(String flavor, FlavorAssignmentMode mode, int borrow, List<String> reasons,
    String noFitReason) {

  public FlavorAttempt {
    reasons = List.copyOf(reasons);
  }
}
