package io.gpufleet.engine.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * FGD's fragmentation measure of one node: the milli-GPU that the typical pods, weighted by their
 * share, could not use. For each typical pod the node either satisfies it (enough cards that each
 * hold the pod's milli-GPU, an accepted model, enough CPU) and then only the cards too small for it
 * count as fragment, or it does not (short of GPU, of CPU, a model it may not use, or the pod needs
 * no GPU at all) and then all its free milli-GPU counts. Memory is not part of the measure.
 *
 * <p>The measure depends on a node's CPU only through which typical CPU requests still fit, and on
 * its cards only as a multiset, so it is memoised on (model, CPU step, sorted free milli-GPU): the
 * many nodes that share a state share one computation. One instance per replay run: the memo is not
 * thread-safe.
 */
public final class Fragmentation {

  private static final int MEMO_MAX_CARDS = 10;
  private static final int MEMO_MAX_CPU_STEPS = 126;

  private final TypicalPods typical;
  /** Per model: the share of typical pods that see all free GPU as fragment whatever the node holds. */
  private final double[] blindShare;
  /** Per model: the typical GPU pods that may use that model. */
  private final int[][] gpuPods;
  private final int[] cpu;
  private final int[] cards;
  private final int[] milli;
  private final double[] share;
  private final int[] cpuSteps;
  private final int[] scratch = new int[MEMO_MAX_CARDS];
  private final Memo memo = new Memo();

  public Fragmentation(TypicalPods typical, CardModels models) {
    this.typical = typical;
    List<TypicalPod> pods = typical.pods();
    int t = pods.size();
    cpu = new int[t];
    cards = new int[t];
    milli = new int[t];
    share = new double[t];
    TreeSet<Integer> steps = new TreeSet<>();
    for (int j = 0; j < t; j++) {
      TypicalPod p = pods.get(j);
      cpu[j] = p.milliCpu();
      cards[j] = p.cards();
      milli[j] = p.milliPerCard();
      share[j] = p.share();
      if (!p.isCpuOnly()) {
        steps.add(p.milliCpu());
      }
    }
    cpuSteps = steps.stream().mapToInt(Integer::intValue).toArray();
    int m = Math.max(models.size(), 1);
    blindShare = new double[m];
    gpuPods = new int[m][];
    for (int model = 0; model < m; model++) {
      List<Integer> usable = new ArrayList<>();
      for (int j = 0; j < t; j++) {
        TypicalPod p = pods.get(j);
        if (p.isCpuOnly() || !CardModels.permits(models.mask(p.models()), model)) {
          blindShare[model] += share[j];
        } else {
          usable.add(j);
        }
      }
      gpuPods[model] = usable.stream().mapToInt(Integer::intValue).toArray();
    }
  }

  public TypicalPods typicalPods() {
    return typical;
  }

  /** The node's fragmentation in milli-GPU. */
  public double of(NodeImage node) {
    return amount(node, node.milliCpuLeft(), 0L, 0);
  }

  /** The node's fragmentation after the pod lands on {@code devices}, without building that image. */
  public double after(NodeImage node, PodShape pod, long devices) {
    return amount(node, node.milliCpuLeft() - pod.milliCpu(), devices, pod.milliPerCard());
  }

  private double amount(NodeImage node, int cpuLeft, long taken, int takenMilli) {
    int n = node.cardCount();
    if (n == 0 || node.model() < 0) {
      return 0;
    }
    if (n > MEMO_MAX_CARDS || cpuSteps.length > MEMO_MAX_CPU_STEPS) {
      return compute(node, cpuLeft, taken, takenMilli);
    }
    int[] v = scratch;
    for (int i = 0; i < n; i++) {
      v[i] = node.cardLeft(i) - (int) (taken >>> i & 1L) * takenMilli;
    }
    // Sorted descending: card order does not change the measure, so equal multisets share a key.
    for (int i = 1; i < n; i++) {
      int x = v[i];
      int k = i - 1;
      while (k >= 0 && v[k] < x) {
        v[k + 1] = v[k];
        k--;
      }
      v[k + 1] = x;
    }
    long a = (node.model() + 1L) | (long) cpuStep(cpuLeft) << 7 | (long) n << 14;
    long b = 0;
    for (int i = 0; i < n; i++) {
      if (i < 4) {
        a |= (long) v[i] << (18 + 10 * i);
      } else {
        b |= (long) v[i] << (10 * (i - 4));
      }
    }
    double cached = memo.get(a, b);
    if (!Double.isNaN(cached)) {
      return cached;
    }
    double frag = compute(node, cpuLeft, taken, takenMilli);
    memo.put(a, b, frag);
    return frag;
  }

  private int cpuStep(int cpuLeft) {
    int i = Arrays.binarySearch(cpuSteps, cpuLeft);
    return i >= 0 ? i + 1 : -i - 1;
  }

  private double compute(NodeImage node, int cpuLeft, long taken, int takenMilli) {
    int n = node.cardCount();
    int model = node.model();
    int total = node.milliGpuLeft() - Long.bitCount(taken) * takenMilli;
    double frag = blindShare[model] * total;
    for (int j : gpuPods[model]) {
      int need = milli[j];
      int fit = 0;
      int small = 0;
      for (int i = 0; i < n; i++) {
        int left = node.cardLeft(i) - (int) (taken >>> i & 1L) * takenMilli;
        if (left >= need) {
          fit++;
        } else {
          small += left;
        }
      }
      boolean satisfied = fit >= cards[j] && cpuLeft >= cpu[j];
      frag += share[j] * (satisfied ? small : total);
    }
    return frag;
  }

  /** Distinct states memoised so far; for benchmarks and tests. */
  public int memoSize() {
    return memo.size;
  }

  /** Open addressing on a 128-bit key; NaN marks a miss. */
  private static final class Memo {
    private long[] keyA = new long[1 << 12];
    private long[] keyB = new long[1 << 12];
    private double[] value = new double[1 << 12];
    private int size;

    double get(long a, long b) {
      int mask = keyA.length - 1;
      for (int i = slot(a, b, mask); keyA[i] != 0; i = (i + 1) & mask) {
        if (keyA[i] == a && keyB[i] == b) {
          return value[i];
        }
      }
      return Double.NaN;
    }

    void put(long a, long b, double v) {
      if (2 * (size + 1) > keyA.length) {
        grow();
      }
      int mask = keyA.length - 1;
      int i = slot(a, b, mask);
      while (keyA[i] != 0) {
        i = (i + 1) & mask;
      }
      keyA[i] = a;
      keyB[i] = b;
      value[i] = v;
      size++;
    }

    private void grow() {
      long[] oldA = keyA;
      long[] oldB = keyB;
      double[] oldV = value;
      keyA = new long[oldA.length * 2];
      keyB = new long[oldA.length * 2];
      value = new double[oldA.length * 2];
      size = 0;
      for (int i = 0; i < oldA.length; i++) {
        if (oldA[i] != 0) {
          put(oldA[i], oldB[i], oldV[i]);
        }
      }
    }

    private static int slot(long a, long b, int mask) {
      long h = a * 0x9E3779B97F4A7C15L ^ b * 0xC2B2AE3D27D4EB4FL;
      h ^= h >>> 29;
      return (int) h & mask;
    }
  }
}
