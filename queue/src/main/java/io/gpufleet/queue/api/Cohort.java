package io.gpufleet.queue.api;

import java.util.List;
import java.util.Optional;

/**
 * A Cohort ({@code apis/kueue/v1beta2/cohort_types.go}): ClusterQueues naming it share their
 * lendable quota through it; it may hold quota of its own, have a parent cohort and a fair-sharing
 * weight among its parent's children. A cohort that ClusterQueues name but no object declares
 * exists implicitly, with no quota, no parent and the default weight.
 */
public record Cohort(String name, Optional<String> parent, List<ResourceGroup> resourceGroups, FairSharing fairSharing) {

  public Cohort {
    resourceGroups = List.copyOf(resourceGroups);
  }

  public Cohort(String name, Optional<String> parent, List<ResourceGroup> resourceGroups) {
    this(name, parent, resourceGroups, FairSharing.DEFAULT);
  }

  public static Cohort named(String name, ResourceGroup... groups) {
    return new Cohort(name, Optional.empty(), List.of(groups));
  }

  public Cohort withParent(String parentName) {
    return new Cohort(name, Optional.of(parentName), resourceGroups, fairSharing);
  }

  /** As Kueue's test wrapper {@code FairWeight(weight)}. */
  public Cohort withFairSharing(FairSharing fs) {
    return new Cohort(name, parent, resourceGroups, fs);
  }
}
