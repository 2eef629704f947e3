package io.gpufleet.queue.quota;

import java.util.List;
import java.util.Map;

/**
 * A node's dominant resource share ({@code DRS} of {@code pkg/cache/scheduler/fair_sharing.go}): the
 * largest ratio, over resources, of what it borrows above its quota to what its parent could lend
 * it, times 1000, divided by its fair-sharing weight. A weight of 0 makes any borrowing infinite.
 *
 * @param fairWeight the node's weight
 * @param unweightedRatio the largest ratio, times 1000, before the weight
 * @param dominantResource the resource that gives it, "" when not borrowing
 * @param borrowing whether usage exceeds the quota in any flavor-resource
 * @param borrowedFlavorResources the flavor-resources it borrows
 */
public record DominantResourceShare(double fairWeight, double unweightedRatio, String dominantResource,
    boolean borrowing, List<FlavorResource> borrowedFlavorResources) {

  public DominantResourceShare {
    borrowedFlavorResources = List.copyOf(borrowedFlavorResources);
  }

  /** {@code NegativeDRS}: below every share, the start of a search for the highest. */
  public static final DominantResourceShare NEGATIVE = new DominantResourceShare(1.0, -1, "", false, List.of());

  /** Not borrowing: a share of 0 ({@code IsZero}). */
  static DominantResourceShare zero(double weight) {
    return new DominantResourceShare(weight, 0, "", false, List.of());
  }

  public boolean isZero() {
    return unweightedRatio == 0;
  }

  /** {@code IsBorrowingOn}: whether it borrows on a flavor-resource the request asks more than 0 of. */
  public boolean isBorrowingOn(Map<FlavorResource, Long> requested) {
    return borrowedFlavorResources.stream().anyMatch(fr -> requested.getOrDefault(fr, 0L) > 0);
  }

  /** {@code PreciseWeightedShare}: 0 when not borrowing, infinite when borrowing with weight 0. */
  public double preciseWeightedShare() {
    if (isZero()) {
      return 0.0;
    }
    if (fairWeight == 0) {
      return Double.POSITIVE_INFINITY;
    }
    return unweightedRatio / fairWeight;
  }

  private boolean zeroWeightBorrows() {
    return fairWeight == 0 && !isZero();
  }

  /**
   * {@code roundedWeightedShare}, the {@code status.fairSharing.weightedShare} Kueue publishes: the
   * precise share rounded up, MaxInt64 for a zero weight that borrows.
   */
  public long roundedWeightedShare() {
    return zeroWeightBorrows() ? Long.MAX_VALUE : (long) Math.ceil(preciseWeightedShare());
  }

  /**
   * {@code CompareDRS}: lower is preferred for admission, higher for preemption; two zero weights
   * that borrow compare by their unweighted ratio, and rank above every other share.
   */
  public static int compare(DominantResourceShare a, DominantResourceShare b) {
    if (a.zeroWeightBorrows() && b.zeroWeightBorrows()) {
      return Double.compare(a.unweightedRatio, b.unweightedRatio);
    }
    if (a.zeroWeightBorrows()) {
      return 1;
    }
    if (b.zeroWeightBorrows()) {
      return -1;
    }
    return Double.compare(a.preciseWeightedShare(), b.preciseWeightedShare());
  }
}
