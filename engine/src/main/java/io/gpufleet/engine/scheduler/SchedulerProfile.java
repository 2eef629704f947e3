package io.gpufleet.engine.scheduler;

import io.gpufleet.engine.scheduler.plugin.DefaultPreemption;
import io.gpufleet.engine.scheduler.plugin.DynamicResources;
import io.gpufleet.engine.scheduler.plugin.FilterPlugin;
import io.gpufleet.engine.scheduler.plugin.ImageLocality;
import io.gpufleet.engine.scheduler.plugin.InterPodAffinity;
import io.gpufleet.engine.scheduler.plugin.NamespaceLabels;
import io.gpufleet.engine.scheduler.plugin.NodeAffinity;
import io.gpufleet.engine.scheduler.plugin.NodeName;
import io.gpufleet.engine.scheduler.plugin.NodePorts;
import io.gpufleet.engine.scheduler.plugin.NodeResourcesBalancedAllocation;
import io.gpufleet.engine.scheduler.plugin.NodeResourcesFit;
import io.gpufleet.engine.scheduler.plugin.NodeUnschedulable;
import io.gpufleet.engine.scheduler.plugin.PodTopologySpread;
import io.gpufleet.engine.scheduler.plugin.PostFilterPlugin;
import io.gpufleet.engine.scheduler.plugin.PreEnqueuePlugin;
import io.gpufleet.engine.scheduler.plugin.PreFilterPlugin;
import io.gpufleet.engine.scheduler.plugin.ResourceWeight;
import io.gpufleet.engine.scheduler.plugin.ScorePlugin;
import io.gpufleet.engine.scheduler.plugin.ScoringStrategy;
import io.gpufleet.engine.scheduler.plugin.SchedulingGates;
import io.gpufleet.engine.scheduler.plugin.SpreadSelectors;
import io.gpufleet.engine.scheduler.plugin.TaintToleration;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.scheduling.SchedulerConfiguration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A scheduler profile: PreEnqueue plugins, PreFilter plugins, filters in the order they run, weighted score plugins, and how many
 * feasible nodes to find before scoring ({@code percentageOfNodesToScore}; 0 means kube-scheduler's
 * adaptive default, 100 scores every node).
 */
public record SchedulerProfile(
    String name, List<PreEnqueuePlugin> preEnqueues, List<PreFilterPlugin> preFilters, List<FilterPlugin> filters, List<WeightedScore> scores, List<PostFilterPlugin> postFilters,
    int percentageOfNodesToScore) {

  /** A score plugin and its weight in the node's total. */
  public record WeightedScore(ScorePlugin plugin, long weight) {}

  public SchedulerProfile {
    preEnqueues = List.copyOf(preEnqueues);
    preFilters = List.copyOf(preFilters);
    filters = List.copyOf(filters);
    scores = List.copyOf(scores);
    postFilters = List.copyOf(postFilters);
    if (percentageOfNodesToScore < 0 || percentageOfNodesToScore > 100) {
      throw new IllegalArgumentException("percentageOfNodesToScore must be in 0..100, found " + percentageOfNodesToScore);
    }
  }

  /** The default profile with LeastAllocated scoring. */
  public static SchedulerProfile defaults() {
    return withStrategy(new ScoringStrategy.LeastAllocated(ScoringStrategy.DEFAULT_RESOURCES));
  }

  /**
   * The plugins of kube-scheduler's default profile that decide GPU placement, in its filter order
   * (pkg/scheduler/apis/config/v1/default_plugins.go, {@code getDefaultPlugins}: NodePorts after
   * NodeAffinity and before NodeResourcesFit, PodTopologySpread's and InterPodAffinity's Filters after
   * it), SchedulingGates as its PreEnqueue
   * and with its default score weights (TaintToleration 3, NodeAffinity 2, PodTopologySpread 2,
   * InterPodAffinity 2, NodeResourcesFit 1, NodeResourcesBalancedAllocation 1, ImageLocality 1). PodTopologySpread knows no controllers
   * until {@link #withSpreadSelectors} tells it, so it spreads nothing by default.
   */
  public static SchedulerProfile withStrategy(ScoringStrategy strategy) {
    NodeResourcesFit fit = new NodeResourcesFit(strategy);
    PodTopologySpread spread = new PodTopologySpread(SpreadSelectors.NONE);
    InterPodAffinity podAffinity = new InterPodAffinity(NamespaceLabels.NAME_ONLY);
    return new SchedulerProfile("default-scheduler", List.of(SchedulingGates.INSTANCE), List.of(NodeAffinity.INSTANCE),
        List.of(NodeUnschedulable.INSTANCE, NodeName.INSTANCE, TaintToleration.INSTANCE, NodeAffinity.INSTANCE,
            NodePorts.INSTANCE, fit, spread, podAffinity),
        List.of(new WeightedScore(TaintToleration.INSTANCE, 3), new WeightedScore(NodeAffinity.INSTANCE, 2),
            new WeightedScore(spread, 2), new WeightedScore(podAffinity, 2), new WeightedScore(fit, 1),
            new WeightedScore(NodeResourcesBalancedAllocation.INSTANCE, 1),
            new WeightedScore(ImageLocality.INSTANCE, 1)),
        List.of(), 0);
  }

  /**
   * The profile a KubeSchedulerConfiguration describes: its scoring strategy, NodeResourcesFit's
   * ignored resources, BalancedAllocation's resources, plugin weights
   * (a weight of 0 keeps the default, as in the API) and disabled score plugins.
   */
  public static SchedulerProfile of(SchedulerConfiguration c) {
    List<ResourceWeight> resources = c.resources().stream()
        .map(r -> new ResourceWeight(r.name(), r.weight())).toList();
    ScoringStrategy strategy = switch (c.strategy()) {
      case LEAST_ALLOCATED -> new ScoringStrategy.LeastAllocated(resources);
      case MOST_ALLOCATED -> new ScoringStrategy.MostAllocated(resources);
      case REQUESTED_TO_CAPACITY_RATIO -> new ScoringStrategy.RequestedToCapacityRatio(resources,
          c.shape().stream().map(p -> new ScoringStrategy.RequestedToCapacityRatio.ShapePoint(p.utilization(),
              p.score())).toList());
    };
    SchedulerProfile base = withStrategy(strategy);
    NodeResourcesFit fit = new NodeResourcesFit(strategy, c.ignoredResources(), c.ignoredResourceGroups());
    NodeResourcesBalancedAllocation balanced = new NodeResourcesBalancedAllocation(
        c.balancedResources().stream().map(SchedulerConfiguration.ResourceWeightSpec::name)
            .toList());
    // A Filter plugin the configuration disables does not filter (kube-scheduler would bind a pod that
    // NodeResourcesFit alone refused, were it disabled).
    List<FilterPlugin> filters = base.filters().stream()
        .map(f -> f instanceof NodeResourcesFit ? (FilterPlugin) fit : f)
        .filter(f -> !c.disabledFilterPlugins().contains(f.pluginName())).toList();
    List<WeightedScore> scores = new ArrayList<>();
    for (WeightedScore original : base.scores()) {
      // instanceof, not a pattern switch, which would make a class at run time on first use.
      WeightedScore ws = original.plugin() instanceof NodeResourcesFit ? new WeightedScore(fit, original.weight())
          : original.plugin() instanceof NodeResourcesBalancedAllocation ? new WeightedScore(balanced, original.weight())
          : original;
      String name = ws.plugin().pluginName();
      if (off(c, name)) {
        continue;
      }
      Integer w = c.scoreWeights().get(name);
      scores.add(new WeightedScore(ws.plugin(), w == null || w == 0 ? ws.weight() : w));
    }
    // DynamicResources joins later (withDynamicResources); its configured weight waits for it here.
    boolean draOff = off(c, DynamicResources.NAME);
    Integer draWeight = c.scoreWeights().get(DynamicResources.NAME);
    scores.add(new WeightedScore(new DynamicResourcesWeight(),
        draOff ? 0 : draWeight == null || draWeight == 0 ? 1 : draWeight));
    return new SchedulerProfile(c.schedulerName(), base.preEnqueues(), base.preFilters(), filters, scores, base.postFilters(),
        c.percentageOfNodesToScore());
  }

  /**
   * Whether a default score plugin is off: disabled by name, or by {@code '*'} unless the profile
   * enables it again. pkg/scheduler/apis/config/v1/default_plugins.go mergePluginSet drops every
   * default plugin under {@code '*'} and then appends the custom enabled ones, so a profile that
   * disables {@code '*'} and enables one plugin keeps that one. {@code scoreWeights} holds every
   * enabled plugin (0 where no weight was written).
   */
  private static boolean off(SchedulerConfiguration c, String name) {
    return c.disabledScorePlugins().contains(name)
        || c.disabledScorePlugins().contains("*") && !c.scoreWeights().containsKey(name);
  }

  /**
   * The same profile with DefaultPreemption as its PostFilter, over its own filters (kube-scheduler's
   * default profile has it; the simulator evicts the victims it names).
   */
  public SchedulerProfile withPreemption() {
    return new SchedulerProfile(name, preEnqueues, preFilters, filters, scores,
        List.of(new DefaultPreemption(filters)), percentageOfNodesToScore);
  }

  /**
   * The same profile whose PodTopologySpread finds each pod's controller selector through {@code
   * selectors}, so the default system constraints spread ReplicaSet and StatefulSet pods.
   */
  public SchedulerProfile withSpreadSelectors(SpreadSelectors selectors) {
    return replacing(PodTopologySpread.class, new PodTopologySpread(selectors));
  }

  /**
   * The same profile whose InterPodAffinity reads namespaces' labels from {@code namespaces}, for
   * terms with a {@code namespaceSelector} ({@link NamespaceLabels#NAME_ONLY} until told).
   */
  public SchedulerProfile withNamespaceLabels(NamespaceLabels namespaces) {
    return replacing(InterPodAffinity.class, new InterPodAffinity(namespaces));
  }

  /** The same profile with {@code plugin} in place of its kind, at Filter and at Score with its weight. */
  private <P extends FilterPlugin & ScorePlugin> SchedulerProfile replacing(Class<P> kind, P plugin) {
    List<FilterPlugin> filtering = filters.stream().map(f -> kind.isInstance(f) ? (FilterPlugin) plugin : f).toList();
    List<WeightedScore> replaced = scores.stream()
        .map(ws -> kind.isInstance(ws.plugin()) ? new WeightedScore(plugin, ws.weight()) : ws).toList();
    return new SchedulerProfile(name, preEnqueues, preFilters, filtering, replaced, postFiltersOver(filtering),
        percentageOfNodesToScore);
  }

  /**
   * Why the pod may not enter this profile's queue: the first PreEnqueue plugin that holds it back,
   * as an UnschedulableAndUnresolvable status with its message; empty when it may. A held pod is
   * never scheduled nor bound.
   */
  public Optional<Status> preEnqueue(io.gpufleet.model.pod.Pod pod) {
    for (PreEnqueuePlugin p : preEnqueues) {
      Optional<String> held = p.preEnqueue(pod);
      if (held.isPresent()) {
        return Optional.of(Status.unresolvable(p.pluginName(), held.get()));
      }
    }
    return Optional.empty();
  }

  /** This profile's PostFilters with DefaultPreemption rebuilt over {@code filtering}, which it re-runs. */
  private List<PostFilterPlugin> postFiltersOver(List<FilterPlugin> filtering) {
    return postFilters.stream()
        .map(p -> p instanceof DefaultPreemption d ? (PostFilterPlugin) d.over(filtering) : p).toList();
  }

  /**
   * The same profile whose DefaultPreemption reads PodDisruptionBudgets and their status from
   * {@code budgets} (upstream's PDB lister), to spare victims whose eviction would violate one.
   */
  public SchedulerProfile withDisruptionBudgets(DefaultPreemption.Budgets budgets) {
    return new SchedulerProfile(name, preEnqueues, preFilters, filters, scores, postFilters.stream()
        .map(p -> p instanceof DefaultPreemption d ? (PostFilterPlugin) d.withBudgets(budgets) : p).toList(),
        percentageOfNodesToScore);
  }

  /**
   * The same profile with DynamicResources over {@code dra}: its PreFilter and its Filter last (after
   * InterPodAffinity, as in the default plugin order), its Score with the weight the configuration gave
   * it ({@link #of}), else 1 (the default profile lists it without a weight, and a score plugin's weight
   * defaults to 1), none when the configuration disabled it, its PostFilter before DefaultPreemption,
   * which is rebuilt over the new filters.
   */
  public SchedulerProfile withDynamicResources(DraObjects dra) {
    return withDynamicResources(new DynamicResources(dra));
  }

  /** The same profile with {@code plugin} as its DynamicResources (placed as above). */
  public SchedulerProfile withDynamicResources(DynamicResources plugin) {
    List<PreFilterPlugin> pre = new ArrayList<>(preFilters);
    pre.add(plugin);
    List<FilterPlugin> filtering = new ArrayList<>();
    // NodeResourcesFit leaves the extended resources a DeviceClass serves to DynamicResources where
    // the node's device plugin does not advertise them.
    for (FilterPlugin f : filters) {
      filtering.add(f instanceof NodeResourcesFit fit
          ? fit.withDraBackedResources(plugin.extendedResources()::backed) : f);
    }
    filtering.add(plugin);
    List<PostFilterPlugin> post = new ArrayList<>();
    post.add(plugin);
    post.addAll(postFiltersOver(filtering));
    long weight = 1;
    List<WeightedScore> scoring = new ArrayList<>();
    for (WeightedScore ws : scores) {
      if (ws.plugin() instanceof DynamicResourcesWeight) {
        weight = ws.weight();
      } else {
        scoring.add(ws);
      }
    }
    if (weight > 0) {
      scoring.add(new WeightedScore(plugin, weight));
    }
    return new SchedulerProfile(name, preEnqueues, pre, filtering, scoring, post, percentageOfNodesToScore);
  }

  public SchedulerProfile withPercentageOfNodesToScore(int percentage) {
    return new SchedulerProfile(name, preEnqueues, preFilters, filters, scores, postFilters, percentage);
  }

  /** kube-scheduler's {@code numFeasibleNodesToFind}. */
  public int feasibleNodesToFind(int allNodes) {
    final int minFeasible = 100;
    if (allNodes < minFeasible || percentageOfNodesToScore == 100) {
      return allNodes;
    }
    int percentage = percentageOfNodesToScore;
    if (percentage == 0) {
      percentage = Math.max(5, 50 - allNodes / 125);
    }
    int n = (int) ((long) allNodes * percentage / 100);
    return Math.max(minFeasible, n);
  }

  /**
   * DynamicResources' score weight from a KubeSchedulerConfiguration (0: disabled), held in the
   * profile's scores until {@link #withDynamicResources} puts the plugin in its place. It scores nothing.
   */
  private record DynamicResourcesWeight() implements ScorePlugin {
    @Override
    public String pluginName() {
      return DynamicResources.NAME;
    }

    @Override
    public Optional<ScorePlugin> preScore(PodInfo pod, ClusterSnapshot snapshot) {
      return Optional.empty();
    }

    @Override
    public long score(PodInfo pod, NodeInfo node) {
      return 0;
    }
  }
}
