package io.gpufleet.sim.replay;

import io.gpufleet.model.gpu.share.SharePod;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The arrival order of the FGD paper's replay. The trace is sorted by pod name and shuffled; then, if
 * its GPU demand is below the target, pods drawn with replacement from the name-sorted trace are
 * appended as clones named {@code <pod>-tuned-<i>} until the first draw that would overshoot; if it is
 * above, pods drawn at random are removed until it is not.
 *
 * <p>The overshoot check adds the drawn pod's milli-GPU <em>per card</em> while the running total adds
 * its milli-GPU over all its cards, as the paper's simulator does: a multi-card pod can thus carry
 * the total past the target. Kept on purpose, so that our arrivals match theirs.
 */
public final class WorkloadTuning {

  private WorkloadTuning() {}

  public static List<SharePod> arrivals(List<SharePod> trace, long targetMilli, RandomGenerator rng) {
    List<SharePod> byName = new ArrayList<>(trace);
    byName.sort(Comparator.comparing(SharePod::name));
    List<SharePod> pods = new ArrayList<>(byName);
    shuffle(pods, rng);
    long total = 0;
    for (SharePod p : pods) {
      total += p.request().gpu().totalMilli();
    }
    if (total < targetMilli) {
      for (int i = 0; ; i++) {
        SharePod drawn = byName.get(rng.nextInt(byName.size()));
        if (total + drawn.request().gpu().milliPerCard() > targetMilli) {
          break;
        }
        total += drawn.request().gpu().totalMilli();
        pods.add(drawn.renamed(drawn.name() + "-tuned-" + i));
      }
    } else {
      while (total > targetMilli) {
        SharePod removed = pods.remove(rng.nextInt(pods.size()));
        total -= removed.request().gpu().totalMilli();
      }
    }
    return pods;
  }

  /** Fisher–Yates, from the back. */
  static <T> void shuffle(List<T> list, RandomGenerator rng) {
    for (int i = list.size() - 1; i > 0; i--) {
      int j = rng.nextInt(i + 1);
      T t = list.get(i);
      list.set(i, list.get(j));
      list.set(j, t);
    }
  }
}
