package io.gpufleet.engine.placement;

import java.util.random.RandomGenerator;

/**
 * GpuClustering: keeps pods of the same GPU affinity (share of a card, or n whole cards) together.
 * Score bands, each 25 wide, graded within the band by how much GPU the node already uses:
 * 75–100 a node holding only pods of this affinity, 50–75 one holding this and others, 25–50 a node
 * with no GPU pods, 0–25 a node holding only other affinities. CPU-only pods score 0 everywhere.
 * Integer arithmetic as in the plugin. Cards by the tightest-fit rule.
 */
public record GpuClustering() implements PlacementPolicy {

  @Override
  public String name() {
    return "GpuClustering";
  }

  @Override
  public double score(NodeImage node, PodShape pod) {
    if (pod.affinity() == 0) {
      return 0;
    }
    long present = node.affinities();
    long used = (long) (MAX_NODE_SCORE / 4) * (MAX_SPEC_MILLI_GPU - node.milliGpuLeft()) / MAX_SPEC_MILLI_GPU;
    if ((present >>> pod.affinity() & 1L) != 0) {
      return Long.bitCount(present) == 1 ? used + MAX_NODE_SCORE * 3 / 4 : used + MAX_NODE_SCORE * 2 / 4;
    }
    return present == 0 ? used + MAX_NODE_SCORE / 4 : used;
  }

  @Override
  public long cards(NodeImage node, PodShape pod, RandomGenerator rng) {
    return node.bestCards(pod);
  }
}
