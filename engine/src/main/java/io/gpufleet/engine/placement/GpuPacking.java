package io.gpufleet.engine.placement;

import io.gpufleet.model.gpu.share.GpuDemand;
import java.util.random.RandomGenerator;

/**
 * GpuPacking: first cards already in use, then nodes already in use, then empty nodes.
 * <ul>
 *   <li>the pod fits on partly used cards: 100 − (free share of those cards, in %)/10, at least 50;
 *   <li>it needs free cards on a used node: 50 − free cards taken, at least 33;
 *   <li>the node is entirely free: max(33 − its cards, its cards), which is how the plugin caps it.
 * </ul>
 * Cards are taken tightest first. CPU-only pods score 0 everywhere.
 */
public record GpuPacking() implements PlacementPolicy {

  @Override
  public String name() {
    return "GpuPacking";
  }

  @Override
  public double score(NodeImage node, PodShape pod) {
    if (pod.cards() == 0) {
      return 0;
    }
    int free = node.freeCards();
    if (free == node.cardCount()) {
      return Math.max(MAX_NODE_SCORE / 3 - free, free);
    }
    long chosen = tightestFirst(node, pod);
    int freeTaken = 0;
    long freeShare = 0;
    for (long d = chosen; d != 0; d &= d - 1) {
      int left = node.cardLeft(Long.numberOfTrailingZeros(d));
      if (left == GpuDemand.MILLI_PER_CARD) {
        freeTaken++;
      }
      freeShare += left * 100L / GpuDemand.MILLI_PER_CARD;
    }
    if (freeTaken > 0) {
      return Math.max(MAX_NODE_SCORE / 2 - freeTaken, MAX_NODE_SCORE / 3);
    }
    return Math.max(MAX_NODE_SCORE - freeShare / 10, MAX_NODE_SCORE / 2);
  }

  /** The pod's cards, taken from the least free upwards (stable on ties), as the plugin reckons them. */
  static long tightestFirst(NodeImage node, PodShape pod) {
    long chosen = 0;
    int need = pod.cards();
    while (need > 0) {
      int best = -1;
      for (int i = 0; i < node.cardCount(); i++) {
        if ((chosen >>> i & 1L) == 0 && node.cardLeft(i) >= pod.milliPerCard()
            && (best < 0 || node.cardLeft(i) < node.cardLeft(best))) {
          best = i;
        }
      }
      if (best < 0) {
        return 0L;
      }
      chosen |= 1L << best;
      need--;
    }
    return chosen;
  }

  @Override
  public long cards(NodeImage node, PodShape pod, RandomGenerator rng) {
    return node.bestCards(pod);
  }
}
