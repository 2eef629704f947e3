package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;

/**
 * Favours nodes whose cpu and memory would be used in equal fractions after placing the pod:
 * {@code (1 - std(fractions)) * 100}. Skipped for pods that request neither (BestEffort).
 * Uses actual requests, not the non-zero defaults.
 */
public enum NodeResourcesBalancedAllocation implements ScorePlugin {
  INSTANCE;

  @Override
  public String pluginName() {
    return "NodeResourcesBalancedAllocation";
  }

  @Override
  public boolean appliesTo(PodInfo pod) {
    return pod.requests().milliCpu() != 0 || pod.requests().memory() != 0;
  }

  @Override
  public long score(PodInfo pod, NodeInfo node) {
    long cpuAlloc = node.allocatable().milliCpu();
    long memAlloc = node.allocatable().memory();
    double[] fractions = new double[2];
    int n = 0;
    if (cpuAlloc != 0) {
      fractions[n++] = Math.min(1.0, (double) (node.requested().milliCpu() + pod.requests().milliCpu()) / cpuAlloc);
    }
    if (memAlloc != 0) {
      fractions[n++] = Math.min(1.0, (double) (node.requested().memory() + pod.requests().memory()) / memAlloc);
    }
    double std = n == 2 ? Math.abs((fractions[0] - fractions[1]) / 2) : 0;
    return (long) ((1 - std) * MAX_NODE_SCORE);
  }
}
