package io.gpufleet.engine.placement;

import io.gpufleet.model.gpu.share.CardModelAllowList;
import io.gpufleet.model.gpu.share.ShareRequest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The distribution of "typical pods" against which FGD measures fragmentation: the distinct
 * (CPU, milli-GPU per card, cards, models) shapes of a workload, most frequent first, cut where they
 * first cover {@code popularityPercent} of the pods (CPU-only pods included), then re-normalised.
 *
 * <p>Frequency ties are broken by the larger shape first (CPU, then milli-GPU, cards, models), the
 * reverse of the shape order, so the cut is a pure function of the workload.
 *
 * @param pods the typical pods, most frequent first; their shares sum to 1
 * @param distinctShapes how many distinct shapes the workload has before the cut
 * @param coverage the fraction of the workload's pods the kept shapes cover
 */
public record TypicalPods(List<TypicalPod> pods, int distinctShapes, double coverage) {

  /** The paper's cut: the most popular shapes that cover 95% of the pods. */
  public static final int PAPER_POPULARITY_PERCENT = 95;

  /** kube-scheduler counts a pod without a CPU request as 100m when it scores; so does the shape key. */
  private static final int NON_ZERO_MILLI_CPU = 100;

  public TypicalPods {
    pods = List.copyOf(pods);
  }

  private record Shape(int milliCpu, int milliPerCard, int cards, String models) {}

  private static final Comparator<Shape> SHAPE_ORDER = Comparator.comparingInt(Shape::milliCpu)
      .thenComparingInt(Shape::milliPerCard)
      .thenComparingInt(Shape::cards)
      .thenComparing(Shape::models);

  public static TypicalPods of(Collection<ShareRequest> workload, int popularityPercent) {
    if (popularityPercent <= 0 || popularityPercent > 100) {
      throw new IllegalArgumentException("popularity percent is 1..100, not " + popularityPercent);
    }
    if (workload.isEmpty()) {
      throw new IllegalArgumentException("typical pods need a non-empty workload");
    }
    Map<Shape, Integer> counts = new HashMap<>();
    Map<Shape, CardModelAllowList> lists = new HashMap<>();
    for (ShareRequest r : workload) {
      int cpu = r.milliCpu() == 0 ? NON_ZERO_MILLI_CPU : Math.toIntExact(r.milliCpu());
      Shape s = new Shape(cpu, r.gpu().milliPerCard(), r.gpu().cards(), r.models().toString());
      counts.merge(s, 1, Integer::sum);
      lists.putIfAbsent(s, r.models());
    }
    List<Map.Entry<Shape, Integer>> ranked = new ArrayList<>(counts.entrySet());
    ranked.sort(Map.Entry.<Shape, Integer>comparingByValue()
        .thenComparing(Map.Entry.comparingByKey(SHAPE_ORDER))
        .reversed());

    double total = workload.size();
    double expected = popularityPercent * total / 100.0;
    double cum = 0;
    int kept = 0;
    while (cum < expected && kept < ranked.size()) {
      cum += ranked.get(kept).getValue();
      kept++;
    }
    double coverage = cum / total;
    List<TypicalPod> pods = new ArrayList<>(kept);
    for (int i = 0; i < kept; i++) {
      Shape s = ranked.get(i).getKey();
      double share = ranked.get(i).getValue() / total / coverage;
      pods.add(new TypicalPod(s.milliCpu(), s.cards(), s.milliPerCard(), lists.get(s), share));
    }
    return new TypicalPods(pods, ranked.size(), coverage);
  }

  public int size() {
    return pods.size();
  }
}
