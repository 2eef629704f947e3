package io.gpufleet.queue.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code CompareDRS} and {@code PreciseWeightedShare} of {@code pkg/cache/scheduler/fair_sharing.go}:
 * the values of {@code fair_sharing_test.go} TestPreciseWeightedShareSerialized, and the order a zero
 * weight that borrows takes.
 */
class DominantResourceShareTest {

  private static DominantResourceShare drs(double weight, double ratio) {
    return new DominantResourceShare(weight, ratio, ratio == 0 ? "" : "cpu", ratio != 0, List.of());
  }

  @Test
  void preciseWeightedShareAsKueueSerializesIt() {
    assertThat(drs(0, 100).preciseWeightedShare()).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(drs(1, 0).preciseWeightedShare()).isEqualTo(0.0);
    assertThat(drs(2, 400).preciseWeightedShare()).isEqualTo(200.0);
    assertThat(drs(4, 10).preciseWeightedShare()).isEqualTo(2.5);
  }

  @Test
  void aZeroWeightThatBorrowsRanksAboveEveryOtherShareAndTwoCompareByTheirRatio() {
    assertThat(DominantResourceShare.compare(drs(0, 1), drs(0.001, 1_000_000))).isPositive();
    assertThat(DominantResourceShare.compare(drs(1, 5), drs(0, 1))).isNegative();
    assertThat(DominantResourceShare.compare(drs(0, 2), drs(0, 1))).isPositive();
    assertThat(DominantResourceShare.compare(drs(0, 0), drs(1, 0))).as("not borrowing: share 0 whatever the weight")
        .isZero();
    assertThat(DominantResourceShare.compare(DominantResourceShare.NEGATIVE, drs(1, 0))).isNegative();
  }

  @Test
  void roundedWeightedShareIsTheStatusValue() {
    assertThat(drs(3, 1).roundedWeightedShare()).isEqualTo(1);
    assertThat(drs(0, 1).roundedWeightedShare()).isEqualTo(Long.MAX_VALUE);
    assertThat(drs(1, 0).roundedWeightedShare()).isZero();
  }

  @Test
  void borrowingOnOnlyCountsFlavorResourcesTheRequestAsksMoreThanZeroOf() {
    FlavorResource cpu = new FlavorResource("default", io.gpufleet.model.resource.ResourceName.CPU);
    DominantResourceShare d = new DominantResourceShare(1, 100, "cpu", true, List.of(cpu));
    assertThat(d.isBorrowingOn(Map.of(cpu, 1L))).isTrue();
    assertThat(d.isBorrowingOn(Map.of(cpu, 0L))).isFalse();
    assertThat(d.isBorrowingOn(Map.of())).isFalse();
  }
}
