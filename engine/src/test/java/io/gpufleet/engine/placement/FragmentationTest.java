package io.gpufleet.engine.placement;

import static io.gpufleet.engine.placement.Fixtures.node;
import static io.gpufleet.engine.placement.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.gpufleet.model.gpu.share.CardModelAllowList;
import io.gpufleet.model.gpu.share.GpuDemand;
import io.gpufleet.model.gpu.share.ShareRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

class FragmentationTest {

  /** Half the pods take 500m with 4 cores, a quarter are CPU-only, a quarter take two whole cards. */
  private static final TypicalPods TYPICAL = TypicalPods.of(List.of(
      ShareRequest.of(4_000, 0, GpuDemand.of(1, 500)),
      ShareRequest.of(4_000, 0, GpuDemand.of(1, 500)),
      ShareRequest.of(2_000, 0, GpuDemand.NONE),
      ShareRequest.of(8_000, 0, GpuDemand.of(2, 1000))), 95);

  private final Fragmentation measure = new Fragmentation(TYPICAL, Fixtures.MODELS);

  @Test
  void countsWhatEachTypicalPodCouldNotUseWeightedByItsShare() {
    NodeImage n = node("G2", 10_000, 1000, 300, 600);
    // 500m: satisfied, only the 300 card is too small -> 0.5 * 300
    // CPU-only: all free GPU counts -> 0.25 * 1900
    // two whole cards: only one free card -> all free GPU counts -> 0.25 * 1900
    assertThat(measure.of(n)).isCloseTo(150 + 475 + 475, within(1e-9));
  }

  @Test
  void aNodeShortOfCpuForAPodCountsAllItsFreeGpuForThatPod() {
    NodeImage n = node("G2", 3_000, 1000, 300, 600);
    assertThat(measure.of(n)).isCloseTo(0.5 * 1900 + 475 + 475, within(1e-9));
  }

  @Test
  void afterIsTheMeasureOfTheImageWithThePodPlaced() {
    NodeImage n = node("G2", 10_000, 1000, 300, 600);
    PodShape p = pod(4_000, 1, 500);
    for (int card = 0; card < 3; card++) {
      if (n.cardLeft(card) >= 500) {
        assertThat(measure.after(n, p, 1L << card)).isCloseTo(measure.of(n.apply(p, 1L << card)), within(1e-9));
      }
    }
    assertThat(measure.after(n, p, 1L << 2)).isCloseTo(0.5 * 400 + 0.25 * 1400 * 2, within(1e-9));
  }

  @Test
  void aModelThePodMayNotUseCountsAsFragmentAndANodeWithoutCardsHasNone() {
    TypicalPods v100Only = TypicalPods.of(List.of(new ShareRequest(1_000, 0, GpuDemand.of(1, 500),
        CardModelAllowList.of(List.of("V100M16")))), 95);
    Fragmentation m = new Fragmentation(v100Only, Fixtures.MODELS);
    assertThat(m.of(node("T4", 10_000, 1000, 1000))).isEqualTo(2000);
    assertThat(m.of(node("V100M16", 10_000, 1000))).isZero();
    assertThat(m.of(NodeImage.of(-1, 10_000, 1000, new int[0], 0L))).isZero();
  }

  @Test
  void equalStatesShareOneMemoEntryWhateverTheCardOrder() {
    Fragmentation m = new Fragmentation(TYPICAL, Fixtures.MODELS);
    double a = m.of(node("G2", 10_000, 1000, 300, 600));
    double b = m.of(node("G2", 10_500, 600, 1000, 300));
    assertThat(b).isEqualTo(a);
    assertThat(m.memoSize()).as("10.0 and 10.5 cores fit the same typical pods").isEqualTo(1);
  }
}
