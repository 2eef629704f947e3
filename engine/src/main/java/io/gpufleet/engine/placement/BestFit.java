package io.gpufleet.engine.placement;

import java.util.random.RandomGenerator;

/**
 * BestFit: the node left with the least free resource after the pod wins. Score = 100 × (1 − Σ w ×
 * (free − request) / maxSpec) over CPU and total GPU, weights 0.5/0.5, maxSpec 128 cores and 8
 * cards, truncated to an integer as the plugin returns it. (The plugin then min-max normalises
 * scores to 0–100; with raw scores already in 0–100 that map keeps order and ties, so it is left out.)
 * Cards by the tightest-fit rule.
 */
public record BestFit() implements PlacementPolicy {

  @Override
  public String name() {
    return "BestFit";
  }

  @Override
  public double score(NodeImage node, PodShape pod) {
    double s = 0;
    s += (double) (node.milliCpuLeft() - pod.milliCpu()) / MAX_SPEC_MILLI_CPU * 0.5;
    s += (double) (node.milliGpuLeft() - pod.totalMilli()) / MAX_SPEC_MILLI_GPU * 0.5;
    return (long) ((1.0 - s) * MAX_NODE_SCORE);
  }

  @Override
  public long cards(NodeImage node, PodShape pod, RandomGenerator rng) {
    return node.bestCards(pod);
  }
}
