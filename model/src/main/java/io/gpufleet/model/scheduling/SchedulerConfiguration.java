package io.gpufleet.model.scheduling;

import io.gpufleet.model.wire.WireEnum;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The parts of a {@code kubescheduler.config.k8s.io/v1 KubeSchedulerConfiguration} profile that
 * change GPU placement: the share of nodes to score, the NodeResourcesFit scoring strategy and its
 * {@code ignoredResources}/{@code ignoredResourceGroups}, NodeResourcesBalancedAllocation's
 * {@code resources}, and score plugin weights and disabled plugins. {@code scoreWeights} has an entry
 * for every plugin the profile enables (0 where it writes no weight); a plugin both disabled and
 * enabled is enabled, so it is not in {@code disabledScorePlugins}. {@code disabledFilterPlugins} names
 * the default Filter plugins the profile turns off ({@code plugins.filter} and {@code plugins.multiPoint},
 * as mergePluginSet merges them), resolved: no {@code '*'}.
 */
public record SchedulerConfiguration(
    String schedulerName,
    int percentageOfNodesToScore,
    ScoringStrategyType strategy,
    List<ResourceWeightSpec> resources,
    List<ShapePointSpec> shape,
    Map<String, Integer> scoreWeights,
    Set<String> disabledScorePlugins,
    List<ResourceWeightSpec> balancedResources,
    Set<String> ignoredResources,
    Set<String> ignoredResourceGroups,
    Set<String> disabledFilterPlugins) {

  /** {@code scoringStrategy.type}: {@code LeastAllocated}, {@code MostAllocated}, {@code RequestedToCapacityRatio}. */
  public enum ScoringStrategyType implements WireEnum { LEAST_ALLOCATED, MOST_ALLOCATED, REQUESTED_TO_CAPACITY_RATIO }

  public record ResourceWeightSpec(String name, int weight) {}

  public record ShapePointSpec(int utilization, int score) {}

  public static final List<ResourceWeightSpec> DEFAULT_RESOURCES =
      List.of(new ResourceWeightSpec("cpu", 1), new ResourceWeightSpec("memory", 1));

  public SchedulerConfiguration {
    resources = List.copyOf(resources);
    shape = List.copyOf(shape);
    scoreWeights = Map.copyOf(scoreWeights);
    disabledScorePlugins = Set.copyOf(disabledScorePlugins);
    balancedResources = List.copyOf(balancedResources);
    ignoredResources = Set.copyOf(ignoredResources);
    ignoredResourceGroups = Set.copyOf(ignoredResourceGroups);
    disabledFilterPlugins = Set.copyOf(disabledFilterPlugins);
  }

  /** A configuration that disables no Filter plugin. */
  public SchedulerConfiguration(String schedulerName, int percentageOfNodesToScore, ScoringStrategyType strategy,
      List<ResourceWeightSpec> resources, List<ShapePointSpec> shape, Map<String, Integer> scoreWeights,
      Set<String> disabledScorePlugins, List<ResourceWeightSpec> balancedResources, Set<String> ignoredResources,
      Set<String> ignoredResourceGroups) {
    this(schedulerName, percentageOfNodesToScore, strategy, resources, shape, scoreWeights, disabledScorePlugins,
        balancedResources, ignoredResources, ignoredResourceGroups, Set.of());
  }

  /**
   * The same configuration with another scoring strategy; RequestedToCapacityRatio without a shape
   * gets the bin-packing shape of the Kubernetes documentation (0% → 0, 100% → 10).
   */
  public SchedulerConfiguration withStrategy(ScoringStrategyType type) {
    List<ShapePointSpec> s = type == ScoringStrategyType.REQUESTED_TO_CAPACITY_RATIO && shape.isEmpty()
        ? List.of(new ShapePointSpec(0, 0), new ShapePointSpec(100, 10)) : shape;
    return new SchedulerConfiguration(schedulerName, percentageOfNodesToScore, type, resources, s, scoreWeights,
        disabledScorePlugins, balancedResources, ignoredResources, ignoredResourceGroups, disabledFilterPlugins);
  }

  public SchedulerConfiguration withPercentageOfNodesToScore(int percentage) {
    return new SchedulerConfiguration(schedulerName, percentage, strategy, resources, shape, scoreWeights,
        disabledScorePlugins, balancedResources, ignoredResources, ignoredResourceGroups, disabledFilterPlugins);
  }

  /** kube-scheduler's defaults. */
  public static SchedulerConfiguration defaults() {
    return new SchedulerConfiguration("default-scheduler", 0, ScoringStrategyType.LEAST_ALLOCATED,
        DEFAULT_RESOURCES, List.of(), Map.of(), Set.of(), DEFAULT_RESOURCES, Set.of(), Set.of());
  }
}
