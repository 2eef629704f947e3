package io.gpufleet.engine.placement;

import static io.gpufleet.engine.placement.Fixtures.node;
import static io.gpufleet.engine.placement.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class NodeImageTest {

  @Test
  void aFractionMustFitOnOneCardNotOnTheNodeTotal() {
    NodeImage n = node("G2", 96_000, 400, 400, 0, 0, 0, 0, 0, 0);
    assertThat(n.milliGpuLeft()).isEqualTo(800);
    assertThat(n.fits(pod(1000, 1, 400))).isTrue();
    assertThat(n.fits(pod(1000, 1, 500))).as("800 free in total, but no card has 500").isFalse();
  }

  @Test
  void wholeCardsMustBeEntirelyFree() {
    NodeImage n = node("G2", 96_000, 1000, 999, 1000, 0, 0, 0, 0, 0);
    assertThat(n.freeCards()).isEqualTo(2);
    assertThat(n.fits(pod(1000, 2, 1000))).isTrue();
    assertThat(n.fits(pod(1000, 3, 1000))).isFalse();
    assertThat(n.firstFreeCards(2)).isEqualTo(0b101L);
    assertThat(n.firstFreeCards(3)).isZero();
  }

  @Test
  void cpuAndMemoryLimitEveryPod() {
    NodeImage n = NodeImage.of(Fixtures.MODELS.id("T4"), 4_000, 2048, new int[] {1000, 1000}, 0L);
    assertThat(n.fits(pod(4_000, 0, 0))).isTrue();
    assertThat(n.fits(pod(4_001, 0, 0))).isFalse();
    assertThat(n.fits(PodShape.of(io.gpufleet.model.gpu.share.ShareRequest.of(1000, 4096,
        io.gpufleet.model.gpu.share.GpuDemand.NONE), Fixtures.MODELS))).isFalse();
  }

  @Test
  void anAllowListKeepsPodsOffOtherModels() {
    NodeImage t4 = Fixtures.empty(1);
    assertThat(t4.fits(pod(1000, 1, 500, "T4"))).isTrue();
    assertThat(t4.fits(pod(1000, 1, 500, "V100M16", "V100M32"))).isFalse();
    assertThat(t4.fits(pod(1000, 1, 500, "A100"))).as("a model the cluster lacks matches nothing").isFalse();
    assertThat(t4.fits(pod(1000, 0, 0))).as("CPU-only pods ignore models").isTrue();
  }

  @Test
  void applyTakesCpuMemoryAndMilliFromTheChosenCards() {
    NodeImage n = Fixtures.empty(0).apply(pod(6_000, 1, 460), 1L << 3);
    assertThat(n.milliCpuLeft()).isEqualTo(90_000);
    assertThat(n.memoryMibLeft()).isEqualTo(393_216 - 1024);
    assertThat(n.cardLeft(3)).isEqualTo(540);
    assertThat(n.usedCards()).isEqualTo(1);
    assertThat(n.affinities()).isEqualTo(1L << 1);
  }

  @Test
  void applyRefusesCardsThatDoNotHoldThePod() {
    NodeImage n = node("G2", 96_000, 300, 1000, 1000, 1000, 1000, 1000, 1000, 1000);
    assertThatThrownBy(() -> n.apply(pod(1000, 1, 500), 1L)).hasMessageContaining("card 0 has 300");
    assertThatThrownBy(() -> n.apply(pod(1000, 2, 1000), 0b10L)).hasMessageContaining("takes 2 card(s)");
    assertThatThrownBy(() -> n.apply(pod(1000, 1, 500), 1L << 9)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void cardChoices() {
    NodeImage n = node("G2", 96_000, 1000, 300, 600, 300, 1000, 1000, 1000, 1000);
    assertThat(n.tightestCard(250)).isEqualTo(1);
    assertThat(n.tightestCard(500)).isEqualTo(2);
    assertThat(n.tightestCard(1001)).isEqualTo(-1);
    assertThat(n.bestCards(pod(1000, 1, 500))).isEqualTo(1L << 2);
    assertThat(n.bestCards(pod(1000, 2, 1000))).isEqualTo(0b10001L);
    assertThat(n.bestCards(pod(1000, 0, 0))).isZero();
    SplittableRandom rng = new SplittableRandom(1);
    for (int i = 0; i < 50; i++) {
      int card = n.randomCard(600, rng);
      assertThat(card).isIn(0, 2, 4, 5, 6, 7);
    }
  }

  @Test
  void imagesAreValues() {
    assertThat(node("T4", 5_000, 1000, 500)).isEqualTo(node("T4", 5_000, 1000, 500));
    assertThat(node("T4", 5_000, 1000, 500)).hasSameHashCodeAs(node("T4", 5_000, 1000, 500));
    assertThat(node("T4", 5_000, 1000, 500)).isNotEqualTo(node("T4", 5_000, 500, 1000));
    int[] cards = {1000, 1000};
    NodeImage n = NodeImage.of(0, 1000, 1000, cards, 0L);
    cards[0] = 0;
    assertThat(n.cardLeft(0)).as("defensive copy").isEqualTo(1000);
  }
}
