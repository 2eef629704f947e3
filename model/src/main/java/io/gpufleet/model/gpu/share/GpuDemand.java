package io.gpufleet.model.gpu.share;

/**
 * How much GPU a pod asks for when cards can be shared (the DRA-style fifth way beside exclusive,
 * time-slicing, MIG and MPS): nothing, a fraction of one card in milli-GPU, or whole cards. A
 * fraction always sits on one card; a pod that wants more than one card takes them whole, which is
 * how the openb trace and its Alibaba scheduler see it.
 */
public sealed interface GpuDemand {

  /** One card, in milli-GPU. */
  int MILLI_PER_CARD = 1000;

  /** Cards the pod touches. */
  int cards();

  /** Milli-GPU the pod takes on each card it touches. */
  int milliPerCard();

  default long totalMilli() {
    return (long) cards() * milliPerCard();
  }

  /** A CPU-only pod. */
  record None() implements GpuDemand {
    @Override
    public int cards() {
      return 0;
    }

    @Override
    public int milliPerCard() {
      return 0;
    }
  }

  /** Part of one card: 1..999 milli-GPU. */
  record Fraction(int milli) implements GpuDemand {
    public Fraction {
      if (milli <= 0 || milli >= MILLI_PER_CARD) {
        throw new IllegalArgumentException("a fraction of a card is 1..999 milli-GPU, not " + milli);
      }
    }

    @Override
    public int cards() {
      return 1;
    }

    @Override
    public int milliPerCard() {
      return milli;
    }
  }

  /** Whole cards, each taken entirely. */
  record Whole(int count) implements GpuDemand {
    public Whole {
      if (count <= 0) {
        throw new IllegalArgumentException("whole cards must be at least 1, not " + count);
      }
    }

    @Override
    public int cards() {
      return count;
    }

    @Override
    public int milliPerCard() {
      return MILLI_PER_CARD;
    }
  }

  GpuDemand NONE = new None();

  /**
   * The demand for {@code cards} cards at {@code milliPerCard} each, as a trace row states it: 0 cards
   * is CPU-only, 1 card below 1000 is a fraction, otherwise whole cards (1000 each).
   */
  static GpuDemand of(int cards, int milliPerCard) {
    if (cards == 0) {
      return NONE;
    }
    if (cards == 1 && milliPerCard < MILLI_PER_CARD) {
      return new Fraction(milliPerCard);
    }
    if (milliPerCard != MILLI_PER_CARD) {
      throw new IllegalArgumentException(
          "a pod on " + cards + " cards takes them whole (1000 milli each), not " + milliPerCard);
    }
    return new Whole(cards);
  }
}
