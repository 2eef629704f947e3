package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.ResourceVector;
import io.gpufleet.engine.scheduler.Status;
import java.util.ArrayList;
import java.util.List;

/**
 * Filter: the pod's request must fit in allocatable minus what bound pods request, for pods count,
 * cpu, memory, ephemeral storage and every extended resource ({@code nvidia.com/gpu} included).
 * Every shortfall is reported ({@code Insufficient cpu}, {@code Insufficient nvidia.com/gpu},
 * {@code Too many pods}). Score: the configured {@link ScoringStrategy} over non-zero requests.
 */
public final class NodeResourcesFit implements FilterPlugin, ScorePlugin {

  public static final String TOO_MANY_PODS = "Too many pods";

  private static final int CPU = 0;
  private static final int MEMORY = 1;
  private static final int EPHEMERAL = 2;
  private static final int SCALAR = 3;

  private final ScoringStrategy strategy;
  // The strategy's resources, resolved once: what kind each is, its name and weight.
  private final int[] kinds;
  private final String[] names;
  private final long[] weights;

  private final java.util.Set<String> ignoredResources;
  private final java.util.Set<String> ignoredResourceGroups;
  // Built once: the filter runs for every node of every pod.
  private final java.util.function.Predicate<String> ignoredCheck;

  public NodeResourcesFit(ScoringStrategy strategy) {
    this(strategy, java.util.Set.of(), java.util.Set.of());
  }

  /**
   * With {@code NodeResourcesFitArgs.ignoredResources} and {@code ignoredResourceGroups}: extended
   * resources the filter does not check, by full name or by the prefix before the {@code /}.
   */
  public NodeResourcesFit(ScoringStrategy strategy, java.util.Set<String> ignoredResources,
      java.util.Set<String> ignoredResourceGroups) {
    this.strategy = strategy;
    this.ignoredResources = java.util.Set.copyOf(ignoredResources);
    this.ignoredResourceGroups = java.util.Set.copyOf(ignoredResourceGroups);
    this.ignoredCheck = ignoredResources.isEmpty() && ignoredResourceGroups.isEmpty() ? r -> false : this::ignored;
    List<ResourceWeight> resources = strategy.resources();
    kinds = new int[resources.size()];
    names = new String[resources.size()];
    weights = new long[resources.size()];
    for (int i = 0; i < kinds.length; i++) {
      names[i] = resources.get(i).name();
      weights[i] = resources.get(i).weight();
      kinds[i] = switch (names[i]) {
        case "cpu" -> CPU;
        case "memory" -> MEMORY;
        case "ephemeral-storage" -> EPHEMERAL;
        default -> SCALAR;
      };
    }
  }

  public ScoringStrategy strategy() {
    return strategy;
  }

  public java.util.Set<String> ignoredResources() {
    return ignoredResources;
  }

  public java.util.Set<String> ignoredResourceGroups() {
    return ignoredResourceGroups;
  }

  public static NodeResourcesFit leastAllocated() {
    return new NodeResourcesFit(new ScoringStrategy.LeastAllocated(ScoringStrategy.DEFAULT_RESOURCES));
  }

  @Override
  public String pluginName() {
    return "NodeResourcesFit";
  }

  @Override
  public Status filter(PodInfo pod, NodeInfo node) {
    if (fits(pod.requests(), node)) {
      return Status.SUCCESS;
    }
    List<InsufficientResource> shortfalls = insufficient(pod.requests(), node, ignoredCheck);
    if (shortfalls.isEmpty()) {
      return Status.SUCCESS;
    }
    String[] reasons = new String[shortfalls.size()];
    boolean unresolvable = false;
    for (int i = 0; i < reasons.length; i++) {
      InsufficientResource r = shortfalls.get(i);
      reasons[i] = r.reason();
      // Upstream: a request larger than the whole node's allocatable cannot be helped by preemption.
      unresolvable |= !r.resourceName().equals("pods") && r.requested() > r.capacity();
    }
    return new Status(unresolvable ? Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE : Status.Code.UNSCHEDULABLE,
        pluginName(), List.of(reasons));
  }

  /** The same comparisons as {@link #filter} without the report of what is short. */
  @Override
  public boolean passes(PodInfo pod, NodeInfo node) {
    return fits(pod.requests(), node);
  }

  @Override
  public int filterAll(PodInfo pod, ClusterSnapshot snapshot, int[] nodes, int count) {
    ResourceVector req = pod.requests();
    int kept = 0;
    for (int j = 0; j < count; j++) {
      int i = nodes[j];
      if (fits(req, snapshot.get(i))) {
        nodes[kept++] = i;
      }
    }
    return kept;
  }

  /**
   * Whether {@link #insufficient} finds nothing short, by the same comparisons without building
   * anything: every node of every pod is asked this, and most pass.
   */
  private boolean fits(ResourceVector req, NodeInfo node) {
    if (node.freePods() < 1) {
      return false;
    }
    long cpu = req.milliCpu();
    long memory = req.memory();
    long ephemeral = req.ephemeralStorage();
    if ((cpu > 0 && cpu > node.freeMilliCpu()) || (memory > 0 && memory > node.freeMemory())
        || (ephemeral > 0 && ephemeral > node.freeEphemeralStorage())) {
      return false;
    }
    for (int i = 0, n = req.scalarCount(); i < n; i++) {
      long want = req.scalarValue(i);
      if (want != 0 && want > node.freeScalar(req.scalarName(i)) && !ignoredCheck.test(req.scalarName(i))) {
        return false;
      }
    }
    return true;
  }

  /** Whether an extended resource is left unchecked by {@code ignoredResources}/{@code ignoredResourceGroups}. */
  private boolean ignored(String resource) {
    if (ignoredResources.isEmpty() && ignoredResourceGroups.isEmpty()) {
      return false;
    }
    if (!io.gpufleet.model.resource.ResourceName.of(resource).isExtended()) {
      return false;
    }
    int slash = resource.indexOf('/');
    return ignoredResources.contains(resource)
        || (slash > 0 && ignoredResourceGroups.contains(resource.substring(0, slash)));
  }

  /**
   * One resource the node lacks, as upstream's {@code InsufficientResource}: the scheduler's reason
   * ({@code Insufficient cpu}, {@code Too many pods}) and the kubelet's requested/used/capacity figures.
   */
  public record InsufficientResource(String resourceName, String reason, long requested, long used, long capacity) {
    /** The kubelet's admission words ({@code pkg/kubelet/lifecycle/predicate.go}, {@code InsufficientResourceError}). */
    public String kubeletMessage() {
      return "Node didn't have enough resource: " + resourceName + ", requested: " + requested + ", used: " + used
          + ", capacity: " + capacity;
    }
  }

  /** The resources, in kube-scheduler's order, that a request does not fit on the node now (the kubelet's check too). */
  public static List<InsufficientResource> insufficient(ResourceVector req, NodeInfo node) {
    return insufficient(req, node, r -> false);
  }

  private static List<InsufficientResource> insufficient(ResourceVector req, NodeInfo node,
      java.util.function.Predicate<String> ignored) {
    List<InsufficientResource> out = List.of();
    if (node.freePods() < 1) {
      out = add(out, new InsufficientResource("pods", TOO_MANY_PODS, 1, node.podCount(), node.allocatable().pods()));
    }
    if (req.milliCpu() == 0 && req.memory() == 0 && req.ephemeralStorage() == 0 && !req.hasScalars()) {
      return out;
    }
    if (req.milliCpu() > 0 && req.milliCpu() > node.freeMilliCpu()) {
      out = add(out, new InsufficientResource("cpu", "Insufficient cpu", req.milliCpu(), node.requestedMilliCpu(),
          node.allocatableMilliCpu()));
    }
    if (req.memory() > 0 && req.memory() > node.freeMemory()) {
      out = add(out, new InsufficientResource("memory", "Insufficient memory", req.memory(), node.requestedMemory(),
          node.allocatableMemory()));
    }
    if (req.ephemeralStorage() > 0 && req.ephemeralStorage() > node.freeEphemeralStorage()) {
      out = add(out, new InsufficientResource("ephemeral-storage", "Insufficient ephemeral-storage",
          req.ephemeralStorage(), node.requested().ephemeralStorage(), node.allocatable().ephemeralStorage()));
    }
    for (int i = 0; i < req.scalarCount(); i++) {
      long want = req.scalarValue(i);
      if (want == 0) {
        continue;
      }
      String name = req.scalarName(i);
      if (want > node.freeScalar(name) && !ignored.test(name)) {
        out = add(out, new InsufficientResource(name, "Insufficient " + name, want, node.requested().scalar(name),
            node.allocatable().scalar(name)));
      }
    }
    return out;
  }

  private static List<InsufficientResource> add(List<InsufficientResource> list, InsufficientResource r) {
    List<InsufficientResource> next = list.isEmpty() ? new ArrayList<>(2) : list;
    next.add(r);
    return next;
  }

  /**
   * The interface's default loop, written here on purpose: the JIT profiles a default method's one
   * body for every plugin, so its call to {@code score} sees many classes; here it sees this one.
   */
  @Override
  public void scoreAll(PodInfo pod, ClusterSnapshot snapshot, int[] nodes, int count, long[] out) {
    for (int j = 0; j < count; j++) {
      out[j] = score(pod, snapshot.get(nodes[j]));
    }
  }

  @Override
  public long score(PodInfo pod, NodeInfo node) {
    long weightedSum = 0;
    long weightSum = 0;
    for (int i = 0; i < kinds.length; i++) {
      long alloc;
      long req;
      switch (kinds[i]) {
        case CPU -> {
          alloc = node.allocatableMilliCpu();
          req = node.nonZeroMilliCpu() + pod.nonZeroMilliCpu();
        }
        case MEMORY -> {
          alloc = node.allocatableMemory();
          req = node.nonZeroMemory() + pod.nonZeroMemory();
        }
        case EPHEMERAL -> {
          alloc = node.allocatable().ephemeralStorage();
          req = node.requested().ephemeralStorage() + pod.requests().ephemeralStorage();
        }
        default -> {
          long podReq = pod.requests().scalar(names[i]);
          // An extended resource the pod does not ask for is left out of its score.
          alloc = podReq == 0 ? 0 : node.allocatable().scalar(names[i]);
          req = node.requested().scalar(names[i]) + podReq;
        }
      }
      if (alloc == 0) {
        continue;
      }
      long s = strategy.resourceScore(req, alloc);
      if (s > 0 || strategy.averagesZeroScores()) {
        weightedSum += s * weights[i];
        weightSum += weights[i];
      }
    }
    return strategy.average(weightedSum, weightSum);
  }
}
