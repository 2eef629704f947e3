package io.gpufleet.report.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ClusterTablesTest {

  /** The bounded heap gives what sorting everything and taking the first rows gives, ties included. */
  @Test
  void firstIsTheSortedHead() {
    SplittableRandom random = new SplittableRandom(33);
    Comparator<int[]> order = Comparator.comparingInt((int[] a) -> a[0]).thenComparingInt(a -> a[1]);
    for (int trial = 0; trial < 500; trial++) {
      List<int[]> all = new ArrayList<>();
      int n = random.nextInt(0, 300);
      for (int i = 0; i < n; i++) {
        all.add(new int[] {random.nextInt(0, 50), i});
      }
      int limit = random.nextInt(0, 350);
      List<int[]> sorted = new ArrayList<>(all);
      sorted.sort(order);
      List<int[]> expected = sorted.subList(0, Math.min(limit, n));
      List<int[]> got = ClusterTables.first(all, order, limit);
      assertEquals(expected.size(), got.size(), "trial " + trial);
      for (int i = 0; i < got.size(); i++) {
        assertEquals(expected.get(i), got.get(i), "trial " + trial + " row " + i);
      }
    }
  }
}
