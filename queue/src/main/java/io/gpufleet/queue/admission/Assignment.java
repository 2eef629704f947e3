package io.gpufleet.queue.admission;

import io.gpufleet.queue.quota.FlavorResource;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A workload's flavor assignment ({@code flavorassigner.Assignment}): per pod set, the height of
 * the cohort subtree it borrows from (0: within nominal quota), the usage it would charge, and the
 * QuotaReserved reason when it does not fit.
 */
public record Assignment(List<PodSetAssignment> podSets, int borrowing, SortedMap<FlavorResource, Long> usage,
    String noFitReason) {

  public Assignment {
    podSets = List.copyOf(podSets);
    usage = new TreeMap<>(usage);
  }

  /** The worst mode among the pod sets; NoFit when none was assigned. */
  public FlavorAssignmentMode representativeMode() {
    if (podSets.isEmpty()) {
      return FlavorAssignmentMode.NO_FIT;
    }
    FlavorAssignmentMode mode = FlavorAssignmentMode.FIT;
    for (PodSetAssignment ps : podSets) {
      if (ps.representativeMode().compareTo(mode) < 0) {
        mode = ps.representativeMode();
      }
    }
    return mode;
  }

  /** {@code Assignment.Message}, the Pending message Kueue writes. */
  public String message() {
    StringBuilder b = new StringBuilder();
    for (PodSetAssignment ps : podSets) {
      if (ps.fits()) {
        continue;
      }
      if (ps.error().isPresent()) {
        return "failed to assign flavors to pod set " + ps.name() + ": " + ps.error().get();
      }
      if (!b.isEmpty()) {
        b.append("; ");
      }
      b.append("couldn't assign flavors to pod set ").append(ps.name()).append(": ").append(ps.statusMessage());
    }
    return b.toString();
  }
}
