package io.gpufleet.engine.placement;

import java.util.random.RandomGenerator;

/**
 * FGD (Weng et al., ATC'23): place the pod where it least increases the {@link Fragmentation} of the
 * node, measured against the typical-pod distribution. Score = sigmoid((before − after) / 1000) × 100,
 * truncated to an integer as the plugin returns it. For a fraction every card that holds it is tried
 * (cards with equal free milli-GPU once) and the best card is kept, lowest index on ties; whole cards
 * are the first free ones.
 *
 * <p>Not thread-safe (its measure memoises): make one per run.
 */
public final class FragmentationGradientDescent implements PlacementPolicy {

  private final Fragmentation measure;

  public FragmentationGradientDescent(Fragmentation measure) {
    this.measure = measure;
  }

  @Override
  public String name() {
    return "FGD";
  }

  @Override
  public double score(NodeImage node, PodShape pod) {
    double before = measure.of(node);
    if (pod.isFraction()) {
      long best = Long.MIN_VALUE;
      for (int i = 0; i < node.cardCount(); i++) {
        if (node.cardLeft(i) >= pod.milliPerCard() && !sameAsEarlierCard(node, i)) {
          best = Math.max(best, cardScore(before, measure.after(node, pod, 1L << i)));
        }
      }
      return best;
    }
    return cardScore(before, measure.after(node, pod, node.bestCards(pod)));
  }

  @Override
  public long cards(NodeImage node, PodShape pod, RandomGenerator rng) {
    if (!pod.isFraction()) {
      return node.bestCards(pod);
    }
    double before = measure.of(node);
    int bestCard = -1;
    long best = Long.MIN_VALUE;
    for (int i = 0; i < node.cardCount(); i++) {
      if (node.cardLeft(i) >= pod.milliPerCard()) {
        long s = cardScore(before, measure.after(node, pod, 1L << i));
        if (bestCard < 0 || s > best) {
          best = s;
          bestCard = i;
        }
      }
    }
    return bestCard < 0 ? 0L : 1L << bestCard;
  }

  /** FGD's score for a change of measure: sigmoid((before − after)/1000) × 100, truncated. */
  static long cardScore(double before, double after) {
    return (long) (sigmoid((before - after) / 1000) * MAX_NODE_SCORE);
  }

  static double sigmoid(double x) {
    return 1.0 / (1.0 + Math.exp(-x));
  }

  /** Cards with the same free milli-GPU give the same outcome, so only the first is tried. */
  static boolean sameAsEarlierCard(NodeImage node, int card) {
    int left = node.cardLeft(card);
    for (int k = 0; k < card; k++) {
      if (node.cardLeft(k) == left) {
        return true;
      }
    }
    return false;
  }
}
