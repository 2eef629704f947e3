package io.gpufleet.sim.replay;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;

/**
 * A replay curve on the paper's discrete x grid: for each whole percent x of arrived GPU demand
 * (0..130), the mean allocation (and fragmentation), in % of cluster GPU capacity, over the arrivals
 * whose arrived demand rounds to x; where none does, over those within x ± 1; NaN where none is.
 * Rounding follows the paper's analysis script: arrived % to the nearest integer and each allocation
 * % to two decimals with Python's {@code round} (the exact binary value, half to even), the mean to
 * two decimals with numpy's (scale by 100, round half to even, scale back).
 */
public final class ArrivalGrid {

  public static final int X_MAX = 130;

  private final double[] alloc;
  private final double[] frag;

  private ArrivalGrid(double[] alloc, double[] frag) {
    this.alloc = alloc;
    this.frag = frag;
  }

  public static ArrivalGrid of(ReplayCurve curve) {
    int n = curve.size();
    double gpus = curve.cluster().capacityMilli() / 1000.0;
    int[] bucket = new int[n];
    double[] allocPct = new double[n];
    double[] fragPct = new double[n];
    for (int i = 0; i < n; i++) {
      bucket[i] = (int) Math.rint(curve.arrivedMilli(i) / gpus / 10);
      allocPct[i] = pythonRound2(curve.usedMilli(i) / gpus / 10);
      fragPct[i] = pythonRound2(curve.fragMilli(i) / gpus / 10);
    }
    double[] alloc = new double[X_MAX + 1];
    double[] frag = new double[X_MAX + 1];
    for (int x = 0; x <= X_MAX; x++) {
      double[] m = means(bucket, allocPct, fragPct, x, x);
      if (Double.isNaN(m[0])) {
        m = means(bucket, allocPct, fragPct, x - 1, x + 1);
      }
      alloc[x] = m[0];
      frag[x] = m[1];
    }
    return new ArrivalGrid(alloc, frag);
  }

  private static double[] means(int[] bucket, double[] a, double[] f, int lo, int hi) {
    double sa = 0;
    double sf = 0;
    int c = 0;
    for (int i = 0; i < bucket.length; i++) {
      if (bucket[i] >= lo && bucket[i] <= hi) {
        sa += a[i];
        sf += f[i];
        c++;
      }
    }
    return c == 0 ? new double[] {Double.NaN, Double.NaN} : new double[] {round2(sa / c), round2(sf / c)};
  }

  /** numpy's {@code round(v, 2)}. */
  static double round2(double v) {
    return Math.rint(v * 100) / 100;
  }

  /** Python's {@code round(v, 2)} on a float: the exact value, rounded half to even. */
  static double pythonRound2(double v) {
    return Double.isFinite(v) ? new BigDecimal(v).setScale(2, RoundingMode.HALF_EVEN).doubleValue() : v;
  }

  /** Allocated GPU in % of capacity at x % arrived, or NaN. */
  public double alloc(int x) {
    return alloc[x];
  }

  /** Fragmentation amount in % of capacity at x % arrived, or NaN. */
  public double frag(int x) {
    return frag[x];
  }

  public double[] allocs() {
    return alloc.clone();
  }

  public double[] frags() {
    return frag.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ArrivalGrid g && Arrays.equals(alloc, g.alloc) && Arrays.equals(frag, g.frag);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(alloc) + Arrays.hashCode(frag);
  }
}
