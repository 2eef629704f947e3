package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import java.util.List;

/**
 * Favours nodes whose configured resources (cpu and memory by default; {@code resources} of
 * NodeResourcesBalancedAllocationArgs, e.g. with {@code nvidia.com/gpu}) would be used in equal
 * fractions after placing the pod: {@code (1 - std(fractions)) * 100}, each fraction capped at 1.
 * Uses actual requests, not the non-zero defaults; an extended resource the pod does not request,
 * or one the node lacks, is left out; a pod that requests none of the resources is skipped
 * (PreScore's Skip for best-effort pods). Follows
 * {@code pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go} and
 * {@code resource_allocation.go}.
 */
public final class NodeResourcesBalancedAllocation implements ScorePlugin {

  /** The default: cpu and memory. */
  public static final NodeResourcesBalancedAllocation INSTANCE =
      new NodeResourcesBalancedAllocation(List.of("cpu", "memory"));

  private final String[] resources;
  private final boolean cpuAndMemory;

  public NodeResourcesBalancedAllocation(List<String> resources) {
    this.resources = resources.toArray(String[]::new);
    this.cpuAndMemory = resources.equals(List.of("cpu", "memory")) || resources.equals(List.of("memory", "cpu"));
  }

  public List<String> resources() {
    return List.of(resources);
  }

  /** The score reads only the node's allocatable and its own pods' requests. */
  @Override
  public boolean scoresNodeLocal() {
    return true;
  }

  @Override
  public String pluginName() {
    return "NodeResourcesBalancedAllocation";
  }

  @Override
  public boolean appliesTo(PodInfo pod) {
    for (String r : resources) {
      if (pod.requests().get(r) != 0) {
        return true;
      }
    }
    return false;
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
    if (cpuAndMemory) {
      // The common case without allocation: two fractions, std = |a - b| / 2.
      long cpuAlloc = node.allocatableMilliCpu();
      long memAlloc = node.allocatableMemory();
      if (cpuAlloc == 0 || memAlloc == 0) {
        return MAX_NODE_SCORE; // one fraction or none: no spread
      }
      double cpu = Math.min(1.0, (double) (node.requestedMilliCpu() + pod.requests().milliCpu()) / cpuAlloc);
      double mem = Math.min(1.0, (double) (node.requestedMemory() + pod.requests().memory()) / memAlloc);
      double std = Math.abs((cpu - mem) / 2);
      return (long) ((1 - std) * MAX_NODE_SCORE);
    }
    return scoreConfigured(pod, node);
  }

  /** Any configured list: upstream's general standard deviation over the fractions that count. */
  private long scoreConfigured(PodInfo pod, NodeInfo node) {
    double[] fractions = new double[resources.length];
    int n = 0;
    double total = 0;
    for (String r : resources) {
      long podRequest = pod.requests().get(r);
      boolean scalar = switch (r) {
        case "cpu", "memory", "ephemeral-storage" -> false;
        default -> true;
      };
      if (podRequest == 0 && scalar) {
        continue;
      }
      long alloc = node.allocatable().get(r);
      if (alloc == 0) {
        continue;
      }
      double f = Math.min(1.0, (double) (node.requested().get(r) + podRequest) / alloc);
      fractions[n++] = f;
      total += f;
    }
    double std = 0;
    if (n == 2) {
      std = Math.abs((fractions[0] - fractions[1]) / 2);
    } else if (n > 2) {
      double mean = total / n;
      double sum = 0;
      for (int i = 0; i < n; i++) {
        sum += (fractions[i] - mean) * (fractions[i] - mean);
      }
      std = Math.sqrt(sum / n);
    }
    return (long) ((1 - std) * MAX_NODE_SCORE);
  }
}
