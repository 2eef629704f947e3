package io.gpufleet.engine.placement;

import io.gpufleet.model.gpu.share.GpuDemand;
import io.gpufleet.model.gpu.share.ShareNode;
import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * One node as a placement policy sees it, per card: free CPU, free memory, the free milli-GPU of
 * each card by device index, the card model, and the GPU-clustering affinities of the pods already
 * there. Immutable; {@link #apply} returns the image after one more pod. Cards are chosen as a bit
 * mask of device indices, so a decision is two primitives and a node image is the only allocation.
 */
public final class NodeImage {

  private final int model;
  private final int milliCpuLeft;
  private final long memoryMibLeft;
  private final int[] cardLeft;
  private final long affinities;
  private final int milliGpuLeft;
  private final int freeCards;

  private NodeImage(int model, int milliCpuLeft, long memoryMibLeft, int[] cardLeft, long affinities) {
    this.model = model;
    this.milliCpuLeft = milliCpuLeft;
    this.memoryMibLeft = memoryMibLeft;
    this.cardLeft = cardLeft;
    this.affinities = affinities;
    int total = 0;
    int free = 0;
    for (int left : cardLeft) {
      total += left;
      if (left == GpuDemand.MILLI_PER_CARD) {
        free++;
      }
    }
    this.milliGpuLeft = total;
    this.freeCards = free;
  }

  /** The node with nothing on it. */
  public static NodeImage empty(ShareNode node, CardModels models) {
    if (node.milliCpu() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("node " + node.name() + " has too much CPU: " + node.milliCpu() + "m");
    }
    int[] cards = new int[node.cards()];
    Arrays.fill(cards, GpuDemand.MILLI_PER_CARD);
    return new NodeImage(node.cards() == 0 ? -1 : models.id(node.cardModel()), (int) node.milliCpu(),
        node.memoryMib(), cards, 0L);
  }

  /** An image with the given free resources, for tests and what-if questions. */
  public static NodeImage of(int model, int milliCpuLeft, long memoryMibLeft, int[] cardLeft, long affinities) {
    for (int left : cardLeft) {
      if (left < 0 || left > GpuDemand.MILLI_PER_CARD) {
        throw new IllegalArgumentException("a card has 0..1000 milli-GPU free, not " + left);
      }
    }
    if (cardLeft.length > 64) {
      throw new IllegalArgumentException("at most 64 cards per node");
    }
    return new NodeImage(cardLeft.length == 0 ? -1 : model, milliCpuLeft, memoryMibLeft, cardLeft.clone(),
        affinities);
  }

  public int model() {
    return model;
  }

  public int milliCpuLeft() {
    return milliCpuLeft;
  }

  public long memoryMibLeft() {
    return memoryMibLeft;
  }

  public int cardCount() {
    return cardLeft.length;
  }

  public int cardLeft(int device) {
    return cardLeft[device];
  }

  /** A copy of the free milli-GPU per card. */
  public int[] cardsLeft() {
    return cardLeft.clone();
  }

  /** Free milli-GPU summed over the cards. */
  public int milliGpuLeft() {
    return milliGpuLeft;
  }

  /** Cards with nothing on them. */
  public int freeCards() {
    return freeCards;
  }

  /** Cards with something on them. */
  public int usedCards() {
    int used = 0;
    for (int left : cardLeft) {
      if (left < GpuDemand.MILLI_PER_CARD) {
        used++;
      }
    }
    return used;
  }

  /** The GPU-clustering affinities present, one bit per {@link PodShape#affinity()}. */
  public long affinities() {
    return affinities;
  }

  /**
   * Whether the pod fits: CPU and memory, an accepted model, and per card: a fraction needs one card
   * with that much free, whole cards need that many entirely free cards.
   */
  public boolean fits(PodShape pod) {
    if (pod.milliCpu() > milliCpuLeft || pod.memoryMib() > memoryMibLeft) {
      return false;
    }
    if (pod.cards() == 0) {
      return true;
    }
    if (!CardModels.permits(pod.models(), model)) {
      return false;
    }
    if (pod.milliPerCard() == GpuDemand.MILLI_PER_CARD) {
      return freeCards >= pod.cards();
    }
    for (int left : cardLeft) {
      if (left >= pod.milliPerCard()) {
        return true;
      }
    }
    return false;
  }

  /** The image with the pod placed on {@code devices}; the cards must be exactly the pod's and fit. */
  public NodeImage apply(PodShape pod, long devices) {
    if (!fits(pod)) {
      throw new IllegalArgumentException("pod " + pod + " does not fit " + this);
    }
    if (Long.bitCount(devices) != pod.cards() || (cardLeft.length < 64 && devices >>> cardLeft.length != 0)) {
      throw new IllegalArgumentException("pod takes " + pod.cards() + " card(s), given devices " + Long.toBinaryString(devices));
    }
    int[] next = cardLeft.clone();
    for (long d = devices; d != 0; d &= d - 1) {
      int i = Long.numberOfTrailingZeros(d);
      if (next[i] < pod.milliPerCard()) {
        throw new IllegalArgumentException("card " + i + " has " + next[i] + " milli-GPU free, pod needs " + pod.milliPerCard());
      }
      next[i] -= pod.milliPerCard();
    }
    long aff = pod.affinity() == 0 ? affinities : affinities | 1L << pod.affinity();
    return new NodeImage(model, milliCpuLeft - pod.milliCpu(), memoryMibLeft - pod.memoryMib(), next, aff);
  }

  /** The lowest-numbered entirely free cards, as many as asked, or 0 if there are not enough. */
  public long firstFreeCards(int count) {
    long mask = 0;
    int found = 0;
    for (int i = 0; i < cardLeft.length && found < count; i++) {
      if (cardLeft[i] == GpuDemand.MILLI_PER_CARD) {
        mask |= 1L << i;
        found++;
      }
    }
    return found == count ? mask : 0L;
  }

  /** The card with the least free milli-GPU that still holds {@code milli}, lowest index on ties; -1 if none. */
  public int tightestCard(int milli) {
    int best = -1;
    for (int i = 0; i < cardLeft.length; i++) {
      int left = cardLeft[i];
      if (left >= milli && (best < 0 || left < cardLeft[best])) {
        best = i;
      }
    }
    return best;
  }

  /** A card drawn uniformly among those that hold {@code milli}; -1 if none. */
  public int randomCard(int milli, RandomGenerator rng) {
    int chosen = -1;
    int seen = 0;
    for (int i = 0; i < cardLeft.length; i++) {
      if (cardLeft[i] >= milli) {
        seen++;
        if (rng.nextInt(seen) == 0) {
          chosen = i;
        }
      }
    }
    return chosen;
  }

  /**
   * The cards the "best" rule picks, the selection shared by most policies: the tightest card for a
   * fraction, the first free cards for whole ones, none for a CPU-only pod.
   */
  public long bestCards(PodShape pod) {
    if (pod.cards() == 0) {
      return 0L;
    }
    if (pod.isFraction()) {
      int card = tightestCard(pod.milliPerCard());
      return card < 0 ? 0L : 1L << card;
    }
    return firstFreeCards(pod.cards());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NodeImage n && model == n.model && milliCpuLeft == n.milliCpuLeft
        && memoryMibLeft == n.memoryMibLeft && affinities == n.affinities && Arrays.equals(cardLeft, n.cardLeft);
  }

  @Override
  public int hashCode() {
    int h = model;
    h = 31 * h + milliCpuLeft;
    h = 31 * h + Long.hashCode(memoryMibLeft);
    h = 31 * h + Long.hashCode(affinities);
    return 31 * h + Arrays.hashCode(cardLeft);
  }

  @Override
  public String toString() {
    return "NodeImage[model=" + model + ", cpu=" + milliCpuLeft + "m, memory=" + memoryMibLeft + "Mi, cards="
        + Arrays.toString(cardLeft) + "]";
  }
}
