package io.gpufleet.queue.api;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.resource.ResourceName;
import java.util.List;
import java.util.Optional;

/**
 * A ClusterQueue ({@code apis/kueue/v1beta2/clusterqueue_types.go}): quota per flavor in resource
 * groups, an optional cohort ({@code cohortName}, {@code cohort} in v1beta1), the queueing strategy,
 * which namespaces may use it, its preemption and fungibility settings and its fair-sharing
 * weight. An absent namespaceSelector matches no namespace, as Kueue's API says; {@code {}} matches all.
 */
public record ClusterQueue(String name, Optional<String> cohort, List<ResourceGroup> resourceGroups,
    QueueingStrategy queueingStrategy, Optional<LabelSelector> namespaceSelector, PreemptionPolicy preemption,
    FlavorFungibility flavorFungibility, FairSharing fairSharing) {

  public ClusterQueue {
    resourceGroups = List.copyOf(resourceGroups);
  }

  /** With the default fair-sharing weight. */
  public ClusterQueue(String name, Optional<String> cohort, List<ResourceGroup> resourceGroups,
      QueueingStrategy queueingStrategy, Optional<LabelSelector> namespaceSelector, PreemptionPolicy preemption,
      FlavorFungibility flavorFungibility) {
    this(name, cohort, resourceGroups, queueingStrategy, namespaceSelector, preemption, flavorFungibility,
        FairSharing.DEFAULT);
  }

  /** As Kueue's test wrapper {@code MakeClusterQueue}: every namespace, BestEffortFIFO, default fungibility. */
  public static ClusterQueue named(String name, ResourceGroup... groups) {
    return new ClusterQueue(name, Optional.empty(), List.of(groups), QueueingStrategy.BEST_EFFORT_FIFO,
        Optional.of(LabelSelector.EVERYTHING), PreemptionPolicy.NEVER, FlavorFungibility.DEFAULT);
  }

  public ClusterQueue inCohort(String cohortName) {
    return new ClusterQueue(name, Optional.of(cohortName), resourceGroups, queueingStrategy, namespaceSelector,
        preemption, flavorFungibility, fairSharing);
  }

  public ClusterQueue withStrategy(QueueingStrategy strategy) {
    return new ClusterQueue(name, cohort, resourceGroups, strategy, namespaceSelector,
        preemption, flavorFungibility, fairSharing);
  }

  public ClusterQueue withNamespaceSelector(Optional<LabelSelector> selector) {
    return new ClusterQueue(name, cohort, resourceGroups, queueingStrategy, selector,
        preemption, flavorFungibility, fairSharing);
  }

  public ClusterQueue withPreemption(PreemptionPolicy policy) {
    return new ClusterQueue(name, cohort, resourceGroups, queueingStrategy, namespaceSelector,
        policy, flavorFungibility, fairSharing);
  }

  public ClusterQueue withFungibility(FlavorFungibility fungibility) {
    return new ClusterQueue(name, cohort, resourceGroups, queueingStrategy, namespaceSelector,
        preemption, fungibility, fairSharing);
  }

  /** As Kueue's test wrapper {@code FairWeight(weight)}. */
  public ClusterQueue withFairSharing(FairSharing fs) {
    return new ClusterQueue(name, cohort, resourceGroups, queueingStrategy, namespaceSelector, preemption,
        flavorFungibility, fs);
  }

  /** The resource group covering {@code resource}, as {@code RGByResource}. */
  public Optional<ResourceGroup> groupFor(ResourceName resource) {
    return resourceGroups.stream().filter(g -> g.coveredResources().contains(resource)).findFirst();
  }
}
