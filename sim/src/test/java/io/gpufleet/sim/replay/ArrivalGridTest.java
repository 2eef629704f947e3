package io.gpufleet.sim.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.gpu.share.GpuDemand;
import io.gpufleet.model.gpu.share.ShareNode;
import io.gpufleet.model.gpu.share.ShareRequest;
import io.gpufleet.model.gpu.share.SharePod;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArrivalGridTest {

  /** 100 cards, so one milli-GPU is 0.001 % and 1000 milli-GPU is 1 %. */
  private static final ReplayCluster CLUSTER = ReplayCluster.of(List.of(new ShareNode("n", 1_000_000, 1 << 30, 64, "X"),
      new ShareNode("m", 1_000_000, 1 << 30, 36, "X")));

  private static ReplayCurve curve(long[] arrived, long[] used) {
    List<SharePod> pods = new ArrayList<>();
    for (int i = 0; i < arrived.length; i++) {
      pods.add(new SharePod("p" + i, ShareRequest.of(0, 0, GpuDemand.NONE)));
    }
    return new ReplayCurve(CLUSTER, pods, new int[arrived.length], arrived, used, new double[arrived.length], List.of());
  }

  @Test
  void averagesTheArrivalsWhoseArrivedShareRoundsToX() {
    ArrivalGrid g = ArrivalGrid.of(curve(new long[] {1_000, 1_400, 2_000, 2_600}, new long[] {1_000, 1_400, 1_900, 2_000}));
    assertThat(g.alloc(1)).isEqualTo(1.2);
    assertThat(g.alloc(2)).isEqualTo(1.9);
    assertThat(g.alloc(3)).isEqualTo(2.0);
  }

  @Test
  void fallsBackToNeighboursAndLeavesNaNWhereNothingIsNear() {
    ArrivalGrid g = ArrivalGrid.of(curve(new long[] {1_000, 3_000}, new long[] {1_000, 2_000}));
    assertThat(g.alloc(2)).as("x +- 1").isEqualTo(1.5);
    assertThat(g.alloc(5)).isNaN();
    assertThat(g.alloc(0)).isEqualTo(1.0);
  }

  @Test
  void roundsArrivedHalfToEvenAndAllocationsToTwoDecimals() {
    ArrivalGrid g = ArrivalGrid.of(curve(new long[] {2_500, 3_500, 5_000}, new long[] {1_234, 1_236, 1_235}));
    assertThat(g.alloc(2)).as("2.5 rounds to 2").isEqualTo(1.23);
    assertThat(g.alloc(4)).as("3.5 rounds to 4").isEqualTo(1.24);
    assertThat(g.alloc(5)).as("1.235 is stored as 1.23499..., which Python rounds down").isEqualTo(1.23);
  }
}
