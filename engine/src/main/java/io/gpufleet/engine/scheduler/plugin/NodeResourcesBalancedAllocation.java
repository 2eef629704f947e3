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
}
