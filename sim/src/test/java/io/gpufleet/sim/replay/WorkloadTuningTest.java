package io.gpufleet.sim.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.gpu.share.GpuDemand;
import io.gpufleet.model.gpu.share.ShareRequest;
import io.gpufleet.model.gpu.share.SharePod;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WorkloadTuningTest {

  private static long total(List<SharePod> pods) {
    return pods.stream().mapToLong(p -> p.request().gpu().totalMilli()).sum();
  }

  @Test
  void sortsByNameThenShufflesBySeed() {
    List<SharePod> trace = SmallCluster.trace(1, 50);
    List<SharePod> reversed = trace.reversed();
    List<SharePod> a = WorkloadTuning.arrivals(trace, total(trace), new SplittableRandom(42));
    List<SharePod> b = WorkloadTuning.arrivals(reversed, total(trace), new SplittableRandom(42));
    assertThat(a).as("the input order does not matter, only names and the seed").isEqualTo(b);
    assertThat(a).containsExactlyInAnyOrderElementsOf(trace).isNotEqualTo(trace);
    assertThat(WorkloadTuning.arrivals(trace, total(trace), new SplittableRandom(43))).isNotEqualTo(a);
  }

  @Test
  void tunesUpWithClonesUntilTheFirstDrawThatWouldOvershoot() {
    List<SharePod> trace = SmallCluster.trace(2, 100);
    long target = total(trace) * 13 / 10;
    List<SharePod> arrivals = WorkloadTuning.arrivals(trace, target, new SplittableRandom(42));
    assertThat(arrivals.subList(0, trace.size())).containsExactlyInAnyOrderElementsOf(trace);
    List<SharePod> clones = arrivals.subList(trace.size(), arrivals.size());
    assertThat(clones).isNotEmpty();
    for (int i = 0; i < clones.size(); i++) {
      assertThat(clones.get(i).name()).endsWith("-tuned-" + i);
    }
    assertThat(total(arrivals)).isLessThanOrEqualTo(target + 7000);
  }

  @Test
  void theOvershootCheckAddsMilliPerCardSoAnEightCardPodCanCarryThePast() {
    List<SharePod> trace = List.of(new SharePod("big", ShareRequest.of(8_000, 0, GpuDemand.of(8, 1000))));
    List<SharePod> arrivals = WorkloadTuning.arrivals(trace, 10_000, new SplittableRandom(1));
    // 8000 + 1000 (per card) <= 10000, so a clone is added and the total becomes 16000.
    assertThat(arrivals).extracting(SharePod::name).containsExactly("big", "big-tuned-0");
    assertThat(total(arrivals)).isEqualTo(16_000);
  }

  @Test
  void tunesDownByRemovingRandomPods() {
    List<SharePod> trace = SmallCluster.trace(3, 200);
    long target = total(trace) / 2;
    List<SharePod> arrivals = WorkloadTuning.arrivals(trace, target, new SplittableRandom(42));
    assertThat(total(arrivals)).isLessThanOrEqualTo(target);
    assertThat(trace).containsAll(arrivals);
  }

  @Test
  void aTraceThatCannotReachTheTargetIsRefusedInsteadOfCloningForever() {
    SharePod cpu = new SharePod("cpu", ShareRequest.of(1_000, 0, GpuDemand.of(0, 0)));
    SharePod sliver = new SharePod("sliver", ShareRequest.of(1_000, 0, GpuDemand.of(1, 1)));
    assertThat(WorkloadTuning.refusal(List.of(), 1_000)).hasValue("the pod list holds no pods");
    assertThat(WorkloadTuning.refusal(List.of(cpu), 1_000)).hasValueSatisfying(r -> assertThat(r).startsWith(
        "no pod requests a GPU"));
    assertThat(WorkloadTuning.refusal(List.of(sliver), WorkloadTuning.MAX_ARRIVALS + 1L)).hasValueSatisfying(
        r -> assertThat(r).endsWith("the replay takes at most " + WorkloadTuning.MAX_ARRIVALS));
    assertThat(WorkloadTuning.refusal(List.of(sliver), WorkloadTuning.MAX_ARRIVALS - 1L)).isEmpty();
    org.assertj.core.api.Assertions.assertThatThrownBy(
        () -> WorkloadTuning.arrivals(List.of(cpu), 1_000, new SplittableRandom(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("no pod requests a GPU");
  }
}
