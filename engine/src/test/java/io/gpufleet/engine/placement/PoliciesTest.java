package io.gpufleet.engine.placement;

import static io.gpufleet.engine.placement.Fixtures.node;
import static io.gpufleet.engine.placement.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.gpu.share.GpuDemand;
import io.gpufleet.model.gpu.share.ShareRequest;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PoliciesTest {

  @Test
  void bestFitScoresTheFreeResourceLeftTruncated() {
    // 1 - (0.5 * 60000/128000 + 0.5 * 1000/8000) = 0.703125
    assertThat(new BestFit().score(node("T4", 64_000, 1000, 1000), pod(4_000, 1, 1000))).isEqualTo(70);
    assertThat(new BestFit().score(node("T4", 4_000, 1000, 0), pod(4_000, 1, 1000))).isEqualTo(100);
  }

  @Test
  void dotProductPrefersTheNodeWhoseFreeVectorAlignsLeastWithThePod() {
    // dot = 0.5 * 0.03125 + 0.25 * 0.125 = 0.046875; 100 * (1 - dot / 2) = 97.66
    assertThat(new DotProduct().score(node("T4", 64_000, 1000, 1000), pod(4_000, 1, 1000))).isEqualTo(97);
  }

  @Test
  void gpuPackingPrefersUsedCardsThenUsedNodesThenSmallEmptyNodes() {
    GpuPacking p = new GpuPacking();
    assertThat(p.score(Fixtures.empty(0), pod(1000, 1, 300))).as("empty 8-card node").isEqualTo(25);
    assertThat(p.score(Fixtures.empty(1), pod(1000, 1, 300))).as("empty 2-card node").isEqualTo(31);
    assertThat(p.score(Fixtures.empty(3), pod(1000, 1, 300))).as("empty 1-card node").isEqualTo(32);
    NodeImage used = node("G2", 96_000, 400, 1000, 1000);
    assertThat(p.score(used, pod(1000, 1, 300))).as("fits on the used card").isEqualTo(96);
    assertThat(p.score(used, pod(1000, 1, 1000))).as("needs a free card").isEqualTo(49);
    assertThat(p.score(used, pod(1000, 2, 1000))).isEqualTo(48);
    assertThat(p.score(used, pod(1000, 0, 0))).isZero();
  }

  @Test
  void gpuClusteringKeepsAffinitiesTogether() {
    GpuClustering p = new GpuClustering();
    PodShape share = pod(1000, 1, 300);
    NodeImage empty = Fixtures.empty(0);
    NodeImage withShare = empty.apply(pod(1000, 1, 500), 1L);
    NodeImage mixed = withShare.apply(pod(1000, 1, 1000), 1L << 1);
    NodeImage wholeOnly = empty.apply(pod(1000, 1, 1000), 1L);
    assertThat(p.score(withShare, share)).isEqualTo(25 * 500 / 8000 + 75);
    assertThat(p.score(mixed, share)).isEqualTo(25 * 1500 / 8000 + 50);
    assertThat(p.score(empty, share)).isEqualTo(25);
    assertThat(p.score(wholeOnly, share)).isEqualTo(25 * 1000 / 8000);
    assertThat(p.score(withShare, pod(1000, 0, 0))).isZero();
  }

  @Test
  void fgdPutsAFractionWhereItLeavesTheMostUsableCard() {
    TypicalPods halves = TypicalPods.of(List.of(ShareRequest.of(1_000, 0, GpuDemand.of(1, 500))), 95);
    FragmentationGradientDescent fgd = new FragmentationGradientDescent(new Fragmentation(halves, Fixtures.MODELS));
    NodeImage n = node("T4", 10_000, 1000, 600);
    // On card 0 both cards keep >= 500: no change, sigmoid(0) = 0.5. On card 1 a 100 sliver appears.
    assertThat(fgd.cards(n, pod(1_000, 1, 500), new SplittableRandom(1))).isEqualTo(1L);
    assertThat(fgd.score(n, pod(1_000, 1, 500))).isEqualTo(50);
    assertThat(new BestFit().cards(n, pod(1_000, 1, 500), new SplittableRandom(1)))
        .as("the tightest-fit rule would have taken card 1").isEqualTo(1L << 1);
  }

  @Test
  void fgdCpuAlsoCountsGpuTheNodesCpuCannotFeed() {
    TypicalPods wholes = TypicalPods.of(List.of(ShareRequest.of(10_000, 0, GpuDemand.of(1, 1000))), 95);
    CpuStranding stranding = new CpuStranding(wholes);
    assertThat(stranding.milliCpuPerMilliGpu()).isEqualTo(10.0);
    NodeImage n = node("G2", 20_000, 1000, 1000, 1000, 1000);
    assertThat(stranding.of(n)).as("4 free cards, CPU for 2").isEqualTo(2000);
    assertThat(stranding.after(n, pod(10_000, 0, 0), 0L)).isEqualTo(3000);
    assertThat(stranding.after(n, pod(10_000, 1, 1000), 1L)).isEqualTo(2000);

    CpuAwareFragmentationGradientDescent ours =
        new CpuAwareFragmentationGradientDescent(new Fragmentation(wholes, Fixtures.MODELS));
    FragmentationGradientDescent fgd = new FragmentationGradientDescent(new Fragmentation(wholes, Fixtures.MODELS));
    NodeImage cpuRich = node("T4", 100_000, 1000, 1000);
    PodShape cpuOnly = pod(10_000, 0, 0);
    assertThat(fgd.score(n, cpuOnly)).as("FGD does not see the harm").isEqualTo(fgd.score(cpuRich, cpuOnly));
    assertThat(ours.score(n, cpuOnly)).isLessThan(ours.score(cpuRich, cpuOnly));
  }

  @Test
  void randomDrawsItsNodeAndACardThatFits() {
    RandomFit r = new RandomFit();
    assertThat(r.drawsNode()).isTrue();
    assertThat(new BestFit().drawsNode()).isFalse();
    NodeImage n = node("G2", 96_000, 100, 1000, 200, 1000);
    SplittableRandom rng = new SplittableRandom(7);
    boolean[] seen = new boolean[4];
    for (int i = 0; i < 200; i++) {
      long c = r.cards(n, pod(1000, 1, 500), rng);
      seen[Long.numberOfTrailingZeros(c)] = true;
    }
    assertThat(seen).containsExactly(false, true, false, true);
  }

  @Test
  void policiesAreNamedAsUsersTypeThem() {
    assertThat(PolicyKind.parse("FGD")).contains(PolicyKind.FGD);
    assertThat(PolicyKind.parse("best-fit")).contains(PolicyKind.BEST_FIT);
    assertThat(PolicyKind.parse("DotProduct")).contains(PolicyKind.DOT_PRODUCT);
    assertThat(PolicyKind.parse("fgd-cpu")).contains(PolicyKind.FGD_CPU);
    assertThat(PolicyKind.parse("tetris")).isEmpty();
    assertThat(PolicyKind.PAPER).hasSize(6).doesNotContain(PolicyKind.FGD_CPU);
    assertThat(PolicyKind.names()).contains("random", "fgd", "fgd-cpu");
  }
}
