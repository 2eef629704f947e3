package io.gpufleet.engine.scheduler.plugin;

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

  public NodeResourcesFit(ScoringStrategy strategy) {
    this.strategy = strategy;
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

  public static NodeResourcesFit leastAllocated() {
    return new NodeResourcesFit(new ScoringStrategy.LeastAllocated(ScoringStrategy.DEFAULT_RESOURCES));
  }

  @Override
  public String pluginName() {
    return "NodeResourcesFit";
  }

  @Override
  public Status filter(PodInfo pod, NodeInfo node) {
    List<String> reasons = insufficient(pod.requests(), node);
    if (reasons.isEmpty()) {
      return Status.SUCCESS;
    }
    boolean unresolvable = exceedsAllocatable(pod.requests(), node.allocatable());
    return new Status(unresolvable ? Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE : Status.Code.UNSCHEDULABLE,
        pluginName(), reasons);
  }

  /** The reasons, in kube-scheduler's order, that a request does not fit the node now. */
  public static List<String> insufficient(ResourceVector req, NodeInfo node) {
    List<String> reasons = List.of();
    if (node.freePods() < 1) {
      reasons = add(reasons, TOO_MANY_PODS);
    }
    if (req.milliCpu() == 0 && req.memory() == 0 && req.ephemeralStorage() == 0 && !req.hasScalars()) {
      return reasons;
    }
    if (req.milliCpu() > 0 && req.milliCpu() > node.freeMilliCpu()) {
      reasons = add(reasons, "Insufficient cpu");
    }
    if (req.memory() > 0 && req.memory() > node.freeMemory()) {
      reasons = add(reasons, "Insufficient memory");
    }
    if (req.ephemeralStorage() > 0 && req.ephemeralStorage() > node.freeEphemeralStorage()) {
      reasons = add(reasons, "Insufficient ephemeral-storage");
    }
    for (int i = 0; i < req.scalarCount(); i++) {
      long want = req.scalarValue(i);
      if (want == 0) {
        continue;
      }
      String name = req.scalarName(i);
      if (want > node.freeScalar(name)) {
        reasons = add(reasons, "Insufficient " + name);
      }
    }
    return reasons;
  }

  private static List<String> add(List<String> reasons, String reason) {
    List<String> next = reasons.isEmpty() ? new ArrayList<>(2) : reasons;
    next.add(reason);
    return next;
  }

  /** A request larger than the whole node: preemption cannot help. */
  static boolean exceedsAllocatable(ResourceVector req, ResourceVector alloc) {
    if (req.milliCpu() > alloc.milliCpu() || req.memory() > alloc.memory()
        || req.ephemeralStorage() > alloc.ephemeralStorage()) {
      return true;
    }
    for (int i = 0; i < req.scalarCount(); i++) {
      if (req.scalarValue(i) > alloc.scalar(req.scalarName(i))) {
        return true;
      }
    }
    return false;
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
