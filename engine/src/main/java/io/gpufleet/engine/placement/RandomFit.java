package io.gpufleet.engine.placement;

import java.util.random.RandomGenerator;

/**
 * Random: one node drawn uniformly among those that fit (the plugin draws it before scoring and gives
 * it the only top score); a fraction goes on a card drawn uniformly among those it fits, whole cards
 * are the first free ones.
 */
public record RandomFit() implements PlacementPolicy {

  @Override
  public String name() {
    return "Random";
  }

  @Override
  public boolean drawsNode() {
    return true;
  }

  @Override
  public double score(NodeImage node, PodShape pod) {
    return 0;
  }

  @Override
  public long cards(NodeImage node, PodShape pod, RandomGenerator rng) {
    if (pod.isFraction()) {
      int card = node.randomCard(pod.milliPerCard(), rng);
      return card < 0 ? 0L : 1L << card;
    }
    return node.bestCards(pod);
  }
}
