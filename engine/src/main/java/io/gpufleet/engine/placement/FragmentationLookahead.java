package io.gpufleet.engine.placement;

import java.util.random.RandomGenerator;

/** Placeholder while the baselines are reproduced; replaced by our policy. */
public final class FragmentationLookahead implements PlacementPolicy {

  private final Fragmentation measure;

  public FragmentationLookahead(Fragmentation measure) {
    this.measure = measure;
  }

  @Override
  public String name() {
    return "FragLookahead";
  }

  @Override
  public double score(NodeImage node, PodShape pod) {
    double before = measure.of(node);
    if (pod.isFraction()) {
      double best = Double.NEGATIVE_INFINITY;
      for (int i = 0; i < node.cardCount(); i++) {
        if (node.cardLeft(i) >= pod.milliPerCard()) {
          best = Math.max(best, before - measure.after(node, pod, 1L << i));
        }
      }
      return best;
    }
    return before - measure.after(node, pod, node.bestCards(pod));
  }

  @Override
  public long cards(NodeImage node, PodShape pod, RandomGenerator rng) {
    if (!pod.isFraction()) {
      return node.bestCards(pod);
    }
    double before = measure.of(node);
    int bestCard = -1;
    double best = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < node.cardCount(); i++) {
      if (node.cardLeft(i) >= pod.milliPerCard()) {
        double s = before - measure.after(node, pod, 1L << i);
        if (bestCard < 0 || s > best) {
          best = s;
          bestCard = i;
        }
      }
    }
    return bestCard < 0 ? 0L : 1L << bestCard;
  }
}
