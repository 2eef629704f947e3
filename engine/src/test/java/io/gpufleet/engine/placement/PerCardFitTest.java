package io.gpufleet.engine.placement;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.gpu.share.CardModelAllowList;
import io.gpufleet.model.gpu.share.GpuDemand;
import io.gpufleet.model.gpu.share.ShareNode;
import io.gpufleet.model.gpu.share.ShareRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Whatever a policy does, a card never holds more than 1000 milli-GPU, CPU and memory never go
 * negative, and a pod only lands on a model it accepts.
 */
class PerCardFitTest {

  private static final List<String> MODELS = List.of("G2", "T4", "P100");

  @Provide
  Arbitrary<List<ShareRequest>> podLists() {
    return requests().list().ofMinSize(1).ofMaxSize(300);
  }

  Arbitrary<ShareRequest> requests() {
    Arbitrary<GpuDemand> gpu = Arbitraries.oneOf(
        Arbitraries.just(GpuDemand.NONE),
        Arbitraries.integers().between(1, 999).map(GpuDemand.Fraction::new),
        Arbitraries.of(1, 2, 4, 8).map(GpuDemand.Whole::new));
    Arbitrary<CardModelAllowList> models = Arbitraries.of(MODELS).list().ofMaxSize(2).map(CardModelAllowList::of);
    return Combinators.combine(Arbitraries.integers().between(0, 40_000), Arbitraries.integers().between(0, 100_000),
        gpu, models).as((cpu, mem, g, m) -> new ShareRequest(cpu, mem, g, m));
  }

  @Property(tries = 300)
  void noCardEverHoldsMoreThan1000Milli(
      @ForAll("podLists") List<ShareRequest> pods,
      @ForAll @IntRange(min = 1, max = 8) int cardsPerNode,
      @ForAll @IntRange(min = 0, max = 6) int policyIndex,
      @ForAll long seed) {
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

  @Property
  void aFractionFitsIffSomeCardHoldsIt(@ForAll @Size(min = 1, max = 8) List<@IntRange(min = 0, max = 1000) Integer> free,
      @ForAll @IntRange(min = 1, max = 999) int milli) {
    NodeImage n = NodeImage.of(0, 1_000_000, 1 << 30, free.stream().mapToInt(Integer::intValue).toArray(), 0L);
    boolean someCard = free.stream().anyMatch(f -> f >= milli);
    assertThat(n.fits(new PodShape(0, 0, 1, milli, CardModels.ANY, 1))).isEqualTo(someCard);
  }
}
