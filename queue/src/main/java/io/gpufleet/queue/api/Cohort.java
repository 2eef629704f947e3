package io.gpufleet.queue.api;

import java.util.List;
import java.util.Optional;

/**
 * A Cohort ({@code apis/kueue/v1beta2/cohort_types.go}): ClusterQueues naming it share their
 * lendable quota through it; it may hold quota of its own and have a parent cohort. A cohort that
 * ClusterQueues name but no object declares exists implicitly, with no quota and no parent.
 */
public record Cohort(String name, Optional<String> parent, List<ResourceGroup> resourceGroups) {

  public Cohort {
    resourceGroups = List.copyOf(resourceGroups);
  }

  public static Cohort named(String name, ResourceGroup... groups) {
    return new Cohort(name, Optional.empty(), List.of(groups));
  }

  public Cohort withParent(String parentName) {
    return new Cohort(name, Optional.of(parentName), resourceGroups);
  }
}
