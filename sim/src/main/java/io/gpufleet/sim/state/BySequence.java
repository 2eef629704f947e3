package io.gpufleet.sim.state;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/** Sorting pods into creation order, as a stable sort by {@link PodState#sequence()} does. */
public final class BySequence {

  private BySequence() {}

  /**
   * Sorts {@code pods} in place by sequence, ties in their present order. When every sequence fits
   * beside the pod's index in one long, the pairs are sorted as primitives (no comparator call per
   * comparison, which dominated sorting a 100,000-pod workload); otherwise a stable comparator sort.
   */
  public static void sort(List<PodState> pods) {
    int n = pods.size();
    if (n < 2) {
      return;
    }
    int indexBits = 64 - Long.numberOfLeadingZeros(n - 1);
    long limit = 1L << (63 - indexBits);
    long[] packed = new long[n];
    for (int i = 0; i < n; i++) {
      long seq = pods.get(i).sequence();
      if (seq < 0 || seq >= limit) {
        pods.sort(Comparator.comparingLong(PodState::sequence));
        return;
      }
      packed[i] = seq << indexBits | i;
    }
    Arrays.sort(packed);
    PodState[] before = pods.toArray(new PodState[0]);
    long mask = (1L << indexBits) - 1;
    for (int i = 0; i < n; i++) {
      pods.set(i, before[(int) (packed[i] & mask)]);
    }
  }
}
