package io.gpufleet.queue.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.queue.api.ClusterQueue;
import io.gpufleet.queue.api.Cohort;
import io.gpufleet.queue.api.FlavorQuotas;
import io.gpufleet.queue.api.ResourceGroup;
import io.gpufleet.queue.api.ResourceQuota;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class QuotaTreeTest {

  private static final FlavorResource RED = FlavorResource.of("red", "cpu");

  /** Random two-level cohort trees with random limits, seeded. */
  private static QuotaTree randomTree(SplittableRandom r, List<String> cqs) {
    List<Cohort> cohorts = List.of(Cohort.named("root"), Cohort.named("left").withParent("root"),
        Cohort.named("right", ResourceGroup.of(FlavorQuotas.of("red", ResourceQuota.of("cpu", "" + r.nextInt(5)))))
            .withParent("root"));
    List<ClusterQueue> queues = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      String bl = r.nextBoolean() ? "" + r.nextInt(6) : "";
      int nominal = r.nextInt(10);
      String ll = r.nextBoolean() ? "" + r.nextInt(nominal + 1) : "";
      queues.add(ClusterQueue.named("cq" + i, ResourceGroup.of(new FlavorQuotas("red",
          List.of(ResourceQuota.of("cpu", "" + nominal, bl, ll))))).inCohort(i < 2 ? "left" : "right"));
      cqs.add("cq" + i);
    }
    return QuotaTree.of(queues, cohorts);
  }

  @Test
  void removingUsageRestoresWhatWasAvailable() {
    SplittableRandom r = new SplittableRandom(20261206);
    for (int round = 0; round < 500; round++) {
      List<String> cqs = new ArrayList<>();
      QuotaTree t = randomTree(r, cqs);
      List<Long> before = cqs.stream().map(q -> t.available(q, RED)).toList();
      List<Map.Entry<String, Long>> added = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        String q = cqs.get(r.nextInt(cqs.size()));
        long v = r.nextInt(8000);
        t.addUsage(q, Map.of(RED, v));
        added.add(Map.entry(q, v));
      }
      for (String q : cqs) {
        assertThat(t.available(q, RED)).as("never above what it could ever use").isLessThanOrEqualTo(
            t.potentialAvailable(q, RED));
      }
      for (int i = added.size() - 1; i >= 0; i--) {
        t.removeUsage(added.get(i).getKey(), Map.of(RED, added.get(i).getValue()));
      }
      assertThat(cqs.stream().map(q -> t.available(q, RED)).toList()).as("round %d", round).isEqualTo(before);
    }
  }

  @Test
  void amountsSaturateAtUnlimited() {
    assertThat(Amounts.add(Amounts.UNLIMITED, 5)).isEqualTo(Amounts.UNLIMITED);
    assertThat(Amounts.sub(Amounts.UNLIMITED, Amounts.UNLIMITED)).isZero();
    assertThat(Amounts.sub(5, Amounts.UNLIMITED)).isEqualTo(Long.MIN_VALUE);
    assertThat(Amounts.add(Long.MAX_VALUE - 1, 10)).isEqualTo(Amounts.UNLIMITED);
  }

  @Test
  void valuesPrintAsKueuesResourceFormatterPrintsThem() {
    assertThat(Amounts.format(io.gpufleet.model.resource.ResourceName.CPU, 1500)).isEqualTo("1500m");
    assertThat(Amounts.format(io.gpufleet.model.resource.ResourceName.CPU, 2000)).isEqualTo("2");
    assertThat(Amounts.format(io.gpufleet.model.resource.ResourceName.MEMORY, 10L * 1024 * 1024)).isEqualTo("10Mi");
    assertThat(Amounts.format(io.gpufleet.model.resource.ResourceName.of("nvidia.com/gpu"), 8)).isEqualTo("8");
    assertThat(Amounts.format(io.gpufleet.model.resource.ResourceName.CPU, Amounts.UNLIMITED)).isEqualTo("Unlimited");
  }

  @Test
  void aCycleOfCohortParentsIsRefused() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> QuotaTree.of(List.of(ClusterQueue.named("q").inCohort("a")),
        List.of(Cohort.named("a").withParent("b"), Cohort.named("b").withParent("a"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cycle");
  }
}
