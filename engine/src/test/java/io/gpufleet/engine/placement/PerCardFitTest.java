package io.gpufleet.engine.placement;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.gpu.share.CardModelAllowList;
import io.gpufleet.model.gpu.share.GpuDemand;
import io.gpufleet.model.gpu.share.ShareNode;
import io.gpufleet.model.gpu.share.ShareRequest;
import io.gpufleet.testing.property.Gen;
import io.gpufleet.testing.property.Property;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Whatever a policy does, a card never holds more than 1000 milli-GPU, CPU and memory never go
 * negative, and a pod only lands on a model it accepts.
 */
class PerCardFitTest {

  private static final List<String> MODELS = List.of("G2", "T4", "P100");

  /** Fixed, so every build runs the same samples. */
  private static final long SEED = 20261206L;

  static Gen<List<ShareRequest>> podLists() {
    return requests().list(1, 300);
  }

  static Gen<ShareRequest> requests() {
    Gen<GpuDemand> gpu = Gen.oneOf(
        Gen.just(GpuDemand.NONE),
        Gen.ints(1, 999).map(GpuDemand.Fraction::new),
        Gen.of(1, 2, 4, 8).map(GpuDemand.Whole::new));
    Gen<CardModelAllowList> models = Gen.of(MODELS).list(0, 2).map(CardModelAllowList::of);
    return Gen.combine(Gen.ints(0, 40_000), Gen.ints(0, 100_000), gpu, models,
        (cpu, mem, g, m) -> new ShareRequest(cpu, mem, g, m));
  }

  @Test
  void noCardEverHoldsMoreThan1000Milli() {
    Property.check(SEED, 300, podLists(), Gen.ints(1, 8), Gen.ints(0, 6), Gen.anyLong(),
        this::noCardEverHoldsMoreThan1000Milli);
  }

  private void noCardEverHoldsMoreThan1000Milli(List<ShareRequest> pods, int cardsPerNode, int policyIndex, long seed) {
    List<ShareNode> nodes = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      nodes.add(new ShareNode("n" + i, 64_000, 256_000, 1 + (i + cardsPerNode) % 8, MODELS.get(i % MODELS.size())));
    }
    CardModels models = CardModels.of(nodes);
    Fragmentation measure = new Fragmentation(TypicalPods.of(pods, 95), models);
    PlacementPolicy policy = PolicyKind.values()[policyIndex].create(measure);
    NodeImage[] images = nodes.stream().map(n -> NodeImage.empty(n, models)).toArray(NodeImage[]::new);
    SplittableRandom rng = new SplittableRandom(seed);

    for (ShareRequest r : pods) {
      PodShape pod = PodShape.of(r, models);
      int best = -1;
      double top = Double.NEGATIVE_INFINITY;
      for (int i = 0; i < images.length; i++) {
        if (images[i].fits(pod)) {
          double s = policy.score(images[i], pod);
          if (best < 0 || s > top) {
            best = i;
            top = s;
          }
        }
      }
      if (best < 0) {
        continue;
      }
      long cards = policy.cards(images[best], pod, rng);
      assertThat(Long.bitCount(cards)).isEqualTo(pod.cards());
      images[best] = images[best].apply(pod, cards);
      assertThat(r.models().permits(nodes.get(best).cardModel()) || pod.isCpuOnly()).isTrue();
    }
    for (NodeImage n : images) {
      for (int c = 0; c < n.cardCount(); c++) {
        assertThat(n.cardLeft(c)).isBetween(0, 1000);
      }
      assertThat(n.milliCpuLeft()).isNotNegative();
      assertThat(n.memoryMibLeft()).isNotNegative();
    }
  }

  @Test
  void aFractionFitsIffSomeCardHoldsIt() {
    Property.check(SEED, 1000, Gen.ints(0, 1000).list(1, 8), Gen.ints(1, 999), this::aFractionFitsIffSomeCardHoldsIt);
  }

  private void aFractionFitsIffSomeCardHoldsIt(List<Integer> free, int milli) {
    NodeImage n = NodeImage.of(0, 1_000_000, 1 << 30, free.stream().mapToInt(Integer::intValue).toArray(), 0L);
    boolean someCard = free.stream().anyMatch(f -> f >= milli);
    assertThat(n.fits(new PodShape(0, 0, 1, milli, CardModels.ANY, 1))).isEqualTo(someCard);
  }
}
