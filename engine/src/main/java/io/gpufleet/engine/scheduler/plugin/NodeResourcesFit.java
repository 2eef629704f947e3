package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.ResourceVector;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Filter: the pod's request must fit in allocatable minus what bound pods request, for pods count,
 * cpu, memory, ephemeral storage and every extended resource ({@code nvidia.com/gpu} included).
 * Every shortfall is reported ({@code Insufficient cpu}, {@code Insufficient nvidia.com/gpu},
 * {@code Too many pods}). Score: the configured {@link ScoringStrategy} over non-zero requests.
 */
public final class NodeResourcesFit implements NodeLocalPlugin {

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

  private final Set<String> ignoredResources;
  private final Set<String> ignoredResourceGroups;
  // Built once: the filter runs for every node of every pod.
  private final Predicate<String> ignoredCheck;
  /** Extended resources a DeviceClass serves (DRAExtendedResource); none until DynamicResources joins. */
  private final Predicate<String> draBacked;

  public NodeResourcesFit(ScoringStrategy strategy) {
    this(strategy, Set.of(), Set.of());
  }

  /**
   * With {@code NodeResourcesFitArgs.ignoredResources} and {@code ignoredResourceGroups}: extended
   * resources the filter does not check, by full name or by the prefix before the {@code /}.
   */
  public NodeResourcesFit(ScoringStrategy strategy, Set<String> ignoredResources,
      Set<String> ignoredResourceGroups) {
    this(strategy, ignoredResources, ignoredResourceGroups, null);
  }

  private NodeResourcesFit(ScoringStrategy strategy, Set<String> ignoredResources,
      Set<String> ignoredResourceGroups, Predicate<String> draBacked) {
    this.draBacked = draBacked;
    this.strategy = strategy;
    this.ignoredResources = Set.copyOf(ignoredResources);
    this.ignoredResourceGroups = Set.copyOf(ignoredResourceGroups);
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

  /**
   * The same plugin leaving to DynamicResources the extended resources {@code backed} names where
   * the node does not advertise them (allocatable 0): a DeviceClass serves them through a claim
   * ({@code fit.go}; {@code fit_test.go} TestEnoughRequests, "extended resource backed by DRA").
   */
  public NodeResourcesFit withDraBackedResources(Predicate<String> backed) {
    return new NodeResourcesFit(strategy, ignoredResources, ignoredResourceGroups, backed);
  }

  /** What the filter leaves unchecked on {@code node}: the ignored resources, and the DRA-backed ones it lacks. */
  private Predicate<String> ignoredOn(NodeInfo node) {
    if (draBacked == null) {
      return ignoredCheck;
    }
    return r -> ignoredCheck.test(r) || (node.allocatable().scalar(r) == 0 && draBacked.test(r));
  }

  public Set<String> ignoredResources() {
    return ignoredResources;
  }

  public Set<String> ignoredResourceGroups() {
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
    long shortfalls = shortfalls(pod.requests(), node, ignoredOn(node));
    return shortfalls == 0 ? Status.SUCCESS : status(pod.requests(), node, shortfalls);
  }

  /** The status {@link #filter} gives a node short of {@code shortfalls} (not none). */
  private Status status(ResourceVector req, NodeInfo node, long shortfalls) {
    List<InsufficientResource> lacking = describe(req, node, shortfalls, ignoredOn(node));
    List<String> reasons = new ArrayList<>(lacking.size());
    for (InsufficientResource r : lacking) {
      reasons.add(r.reason());
    }
    // Upstream: a request larger than the whole node's allocatable cannot be helped by preemption.
    return new Status((shortfalls & BEYOND_NODE) != 0 ? Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE
        : Status.Code.UNSCHEDULABLE, pluginName(), reasons);
  }

  /**
   * As {@link #filter} node by node, but the nodes short of the same resources (each within or
   * beyond the whole node alike) share one status: when no node fits, a fleet's full nodes all
   * fail alike, and one status per kind of shortfall is built instead of one per node.
   */
  @Override
  public void rejections(PodInfo pod, ClusterSnapshot snapshot, int[] nodes, int count, Status[] out) {
    ResourceVector req = pod.requests();
    // The masks seen and their statuses: a few kinds of shortfall cover a fleet, so a short list
    // searched in order serves, with no boxed key per node.
    long[] masks = new long[8];
    Status[] made = new Status[8];
    int kinds = 0;
    for (int j = 0; j < count; j++) {
      NodeInfo node = snapshot.get(nodes[j]);
      long shortfalls = shortfalls(req, node, ignoredOn(node));
      if (shortfalls == 0) {
        throw new IllegalStateException(pluginName() + " passes node " + node.name() + " that its batch call rejected");
      }
      // Past the scalars a mask names one by one, two nodes alike in the mask may lack different ones.
      if ((shortfalls & SHORT_LATER_SCALAR) != 0) {
        out[nodes[j]] = status(req, node, shortfalls);
        continue;
      }
      int k = 0;
      while (k < kinds && masks[k] != shortfalls) {
        k++;
      }
      if (k == kinds) {
        if (kinds == masks.length) {
          masks = Arrays.copyOf(masks, kinds * 2);
          made = Arrays.copyOf(made, kinds * 2);
        }
        masks[k] = shortfalls;
        made[k] = status(req, node, shortfalls);
        kinds++;
      }
      out[nodes[j]] = made[k];
    }
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
      if (want != 0 && want > node.freeScalar(req.scalarName(i)) && !ignoredCheck.test(req.scalarName(i))
          && !(draBacked != null && node.allocatable().scalar(req.scalarName(i)) == 0
          && draBacked.test(req.scalarName(i)))) {
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
    if (!ResourceName.of(resource).isExtended()) {
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
      Predicate<String> ignored) {
    long shortfalls = shortfalls(req, node, ignored);
    return shortfalls == 0 ? List.of() : describe(req, node, shortfalls, ignored);
  }

  /** The resources a mask from {@link #shortfalls} names, in kube-scheduler's order, with the kubelet's figures. */
  private static List<InsufficientResource> describe(ResourceVector req, NodeInfo node, long shortfalls,
      Predicate<String> ignored) {
    List<InsufficientResource> out = new ArrayList<>(2);
    if ((shortfalls & SHORT_PODS) != 0) {
      out.add(new InsufficientResource("pods", TOO_MANY_PODS, 1, node.podCount(), node.allocatable().pods()));
    }
    if ((shortfalls & SHORT_CPU) != 0) {
      out.add(new InsufficientResource("cpu", "Insufficient cpu", req.milliCpu(), node.requestedMilliCpu(),
          node.allocatableMilliCpu()));
    }
    if ((shortfalls & SHORT_MEMORY) != 0) {
      out.add(new InsufficientResource("memory", "Insufficient memory", req.memory(), node.requestedMemory(),
          node.allocatableMemory()));
    }
    if ((shortfalls & SHORT_EPHEMERAL) != 0) {
      out.add(new InsufficientResource("ephemeral-storage", "Insufficient ephemeral-storage",
          req.ephemeralStorage(), node.requested().ephemeralStorage(), node.allocatable().ephemeralStorage()));
    }
    for (int i = 0; i < req.scalarCount(); i++) {
      if (scalarShort(shortfalls, req, i, node, ignored)) {
        String name = req.scalarName(i);
        out.add(new InsufficientResource(name, "Insufficient " + name, req.scalarValue(i),
            node.requested().scalar(name), node.allocatable().scalar(name)));
      }
    }
    return out;
  }

  // The bits of a shortfall mask: the resources short, in kube-scheduler's order, and whether any
  // request (pods aside) exceeds the node's whole allocatable.
  private static final long SHORT_PODS = 1;
  private static final long SHORT_CPU = 1 << 1;
  private static final long SHORT_MEMORY = 1 << 2;
  private static final long SHORT_EPHEMERAL = 1 << 3;
  private static final int FIRST_SCALAR_BIT = 4;
  /** The scalars past those with a bit of their own share this one. */
  private static final int LATER_SCALAR_BIT = 62;
  private static final long SHORT_LATER_SCALAR = 1L << LATER_SCALAR_BIT;
  private static final long BEYOND_NODE = 1L << 63;

  /**
   * What the node lacks for the request, as a mask of the bits above (0: nothing): kube-scheduler's
   * comparisons, done once here for the report, {@link #filter}'s status and the kubelet's check.
   */
  private static long shortfalls(ResourceVector req, NodeInfo node, Predicate<String> ignored) {
    long out = node.freePods() < 1 ? SHORT_PODS : 0;
    if (req.milliCpu() == 0 && req.memory() == 0 && req.ephemeralStorage() == 0 && !req.hasScalars()) {
      return out;
    }
    if (req.milliCpu() > 0 && req.milliCpu() > node.freeMilliCpu()) {
      out |= SHORT_CPU | (req.milliCpu() > node.allocatableMilliCpu() ? BEYOND_NODE : 0);
    }
    if (req.memory() > 0 && req.memory() > node.freeMemory()) {
      out |= SHORT_MEMORY | (req.memory() > node.allocatableMemory() ? BEYOND_NODE : 0);
    }
    if (req.ephemeralStorage() > 0 && req.ephemeralStorage() > node.freeEphemeralStorage()) {
      out |= SHORT_EPHEMERAL | (req.ephemeralStorage() > node.allocatable().ephemeralStorage() ? BEYOND_NODE : 0);
    }
    for (int i = 0; i < req.scalarCount(); i++) {
      if (scalarShort(req, i, node, ignored)) {
        out |= 1L << Math.min(FIRST_SCALAR_BIT + i, LATER_SCALAR_BIT)
            | (req.scalarValue(i) > node.allocatable().scalar(req.scalarName(i)) ? BEYOND_NODE : 0);
      }
    }
    return out;
  }

  /** Whether the node lacks the request's {@code i}-th extended resource (one not ignored). */
  private static boolean scalarShort(ResourceVector req, int i, NodeInfo node, Predicate<String> ignored) {
    long want = req.scalarValue(i);
    return want != 0 && want > node.freeScalar(req.scalarName(i)) && !ignored.test(req.scalarName(i));
  }

  /** Whether a mask from {@link #shortfalls} has the request's {@code i}-th extended resource short. */
  private static boolean scalarShort(long shortfalls, ResourceVector req, int i, NodeInfo node,
      Predicate<String> ignored) {
    int bit = FIRST_SCALAR_BIT + i;
    return bit < LATER_SCALAR_BIT ? (shortfalls & (1L << bit)) != 0
        : (shortfalls & SHORT_LATER_SCALAR) != 0 && scalarShort(req, i, node, ignored);
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
