package io.gpufleet.queue.api;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.resource.ResourceName;
import java.util.List;
import java.util.Optional;

/**
 * A ClusterQueue ({@code apis/kueue/v1beta2/clusterqueue_types.go}): quota per flavor in resource
 * groups, an optional cohort ({@code cohortName}, {@code cohort} in v1beta1), the queueing strategy,
 * which namespaces may use it, and its preemption and fungibility settings. An absent
 * namespaceSelector matches no namespace, as Kueue's API says; {@code {}} matches all.
 */
public record ClusterQueue(String name, Optional<String> cohort, List<ResourceGroup> resourceGroups,
    QueueingStrategy queueingStrategy, Optional<LabelSelector> namespaceSelector, PreemptionPolicy preemption,
    FlavorFungibility flavorFungibility) {

  public ClusterQueue {
    resourceGroups = List.copyOf(resourceGroups);
  }

  /** As Kueue's test wrapper {@code MakeClusterQueue}: every namespace, BestEffortFIFO, default fungibility. */
  public static ClusterQueue named(String name, ResourceGroup... groups) {
    return new ClusterQueue(name, Optional.empty(), List.of(groups), QueueingStrategy.BEST_EFFORT_FIFO,
        Optional.of(LabelSelector.EVERYTHING), PreemptionPolicy.NEVER, FlavorFungibility.DEFAULT);
  }

  public ClusterQueue inCohort(String cohortName) {
    return new ClusterQueue(name, Optional.of(cohortName), resourceGroups, queueingStrategy, namespaceSelector,
        preemption, flavorFungibility);
  }

  public ClusterQueue withStrategy(QueueingStrategy strategy) {
    return new ClusterQueue(name, cohort, resourceGroups, strategy, namespaceSelector, preemption, flavorFungibility);
  }

  public ClusterQueue withNamespaceSelector(Optional<LabelSelector> selector) {
    return new ClusterQueue(name, cohort, resourceGroups, queueingStrategy, selector, preemption, flavorFungibility);
  }

  public ClusterQueue withPreemption(PreemptionPolicy policy) {
    return new ClusterQueue(name, cohort, resourceGroups, queueingStrategy, namespaceSelector, policy, flavorFungibility);
  }

  public ClusterQueue withFungibility(FlavorFungibility fungibility) {
    return new ClusterQueue(name, cohort, resourceGroups, queueingStrategy, namespaceSelector, preemption, fungibility);
  }

  /** The resource group covering {@code resource}, as {@code RGByResource}. */
  public Optional<ResourceGroup> groupFor(ResourceName resource) {
    return resourceGroups.stream().filter(g -> g.coveredResources().contains(resource)).findFirst();
  }
}
