package io.gpufleet.sim.replay;

import io.gpufleet.model.gpu.share.SharePod;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
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

  /** The most arrivals a replay tunes up to: about ten times the paper's (the default trace tunes to ~10,000). */
  public static final int MAX_ARRIVALS = 100_000;

  /**
   * Why a trace cannot be tuned to the target, if it cannot: no pods, no GPU demand (the clones
   * would never reach it), or GPU pods so small that reaching it takes more than
   * {@link #MAX_ARRIVALS} arrivals (estimated from the trace's mean GPU demand per pod).
   */
  public static Optional<String> refusal(List<SharePod> trace, long targetMilli) {
    if (trace.isEmpty()) {
      return Optional.of("the pod list holds no pods");
    }
    long total = 0;
    for (SharePod p : trace) {
      total += p.request().gpu().totalMilli();
    }
    if (total == 0) {
      return Optional.of("no pod requests a GPU (num_gpu is 0 on every row); the replay adds clones of the trace's pods "
          + "until their GPU demand reaches " + targetMilli + " milli-GPU, which pods without GPUs never do");
    }
    double estimate = trace.size() + Math.max(0, targetMilli - total) / ((double) total / trace.size());
    if (estimate > MAX_ARRIVALS) {
      return Optional.of(String.format(Locale.ROOT, "reaching %d milli-GPU with pods of %.1f milli-GPU on average takes "
          + "about %.0f arrivals; the replay takes at most %d", targetMilli, (double) total / trace.size(), estimate,
          MAX_ARRIVALS));
    }
    return Optional.empty();
  }

  public static List<SharePod> arrivals(List<SharePod> trace, long targetMilli, RandomGenerator rng) {
    refusal(trace, targetMilli).ifPresent(r -> {
      throw new IllegalArgumentException(r);
    });
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
        if (pods.size() > MAX_ARRIVALS) {
          // The estimate above let it through, the draws did not: still bounded.
          throw new IllegalArgumentException("tuning the trace took more than " + MAX_ARRIVALS + " arrivals");
        }
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
