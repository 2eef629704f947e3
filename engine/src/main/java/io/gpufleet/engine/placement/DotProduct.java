package io.gpufleet.engine.placement;

import java.util.random.RandomGenerator;

/**
 * DotProduct (Tetris' alignment heuristic, inverted): the dot product of the node's free vector and
 * the pod's request vector, CPU and total GPU each scaled by the largest node shape, averaged over the
 * two dimensions; the score is 100 × (1 − that), truncated to an integer as the plugin returns it.
 * A smaller product means a fuller node, so this packs. Cards by the tightest-fit rule.
 */
public record DotProduct() implements PlacementPolicy {

  @Override
  public String name() {
    return "DotProduct";
  }

  @Override
  public double score(NodeImage node, PodShape pod) {
    double nodeCpu = (double) node.milliCpuLeft() / MAX_SPEC_MILLI_CPU;
    double nodeGpu = (double) node.milliGpuLeft() / MAX_SPEC_MILLI_GPU;
    double podCpu = (double) pod.milliCpu() / MAX_SPEC_MILLI_CPU;
    double podGpu = (double) pod.totalMilli() / MAX_SPEC_MILLI_GPU;
    double dot = 0;
    dot += nodeCpu * podCpu;
    dot += nodeGpu * podGpu;
    double s = 1 - dot / 2;
    return (long) (MAX_NODE_SCORE * s);
  }

  @Override
  public long cards(NodeImage node, PodShape pod, RandomGenerator rng) {
    return node.bestCards(pod);
  }
}
