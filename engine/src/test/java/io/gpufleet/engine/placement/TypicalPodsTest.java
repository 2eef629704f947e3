package io.gpufleet.engine.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.gpufleet.model.gpu.share.GpuDemand;
import io.gpufleet.model.gpu.share.ShareRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class TypicalPodsTest {

  private static List<ShareRequest> copies(int n, ShareRequest r) {
    return Collections.nCopies(n, r);
  }

  @Test
  void keepsTheMostFrequentShapesUntilTheyCoverThePercentageThenRenormalises() {
    List<ShareRequest> workload = new ArrayList<>();
    workload.addAll(copies(10, ShareRequest.of(4_000, 1, GpuDemand.of(1, 500))));
    workload.addAll(copies(9, ShareRequest.of(2_000, 2, GpuDemand.NONE)));
    workload.addAll(copies(1, ShareRequest.of(8_000, 3, GpuDemand.of(8, 1000))));
    TypicalPods t = TypicalPods.of(workload, 95);
    assertThat(t.distinctShapes()).isEqualTo(3);
    assertThat(t.size()).isEqualTo(2);
    assertThat(t.coverage()).isCloseTo(0.95, within(1e-12));
    assertThat(t.pods().get(0).milliPerCard()).isEqualTo(500);
    assertThat(t.pods().get(0).share()).isCloseTo(10.0 / 19, within(1e-12));
    assertThat(t.pods().get(1).isCpuOnly()).isTrue();
    assertThat(t.pods().stream().mapToDouble(TypicalPod::share).sum()).isCloseTo(1.0, within(1e-12));
  }

  @Test
  void memoryIsNotPartOfTheShapeAndTiesGoToTheLargerShape() {
    List<ShareRequest> workload = List.of(
        ShareRequest.of(4_000, 1, GpuDemand.of(1, 500)),
        ShareRequest.of(4_000, 999, GpuDemand.of(1, 500)),
        ShareRequest.of(6_000, 1, GpuDemand.of(1, 1000)),
        ShareRequest.of(6_000, 1, GpuDemand.of(1, 1000)),
        ShareRequest.of(2_000, 1, GpuDemand.NONE),
        ShareRequest.of(2_000, 1, GpuDemand.NONE));
    TypicalPods t = TypicalPods.of(workload, 100);
    assertThat(t.distinctShapes()).isEqualTo(3);
    assertThat(t.pods()).extracting(TypicalPod::milliCpu).containsExactly(6_000, 4_000, 2_000);
  }
}
