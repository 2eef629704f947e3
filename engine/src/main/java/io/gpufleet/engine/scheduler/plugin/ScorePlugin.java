package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import java.util.Arrays;
import java.util.Optional;

/** A Score extension point: a score per feasible node, then an optional normalisation to 0..100. */
public interface ScorePlugin {

  long MAX_NODE_SCORE = 100;

  String pluginName();

  /** False when the plugin has nothing to say about this pod (PreScore returned Skip). */
  default boolean appliesTo(PodInfo pod) {
    return true;
  }

  /**
   * PreScore: the scorer for this pod's cycle, or empty to skip the plugin. A plugin that needs
   * cluster-wide state (counts over every node) returns a scorer holding it; the default is the
   * plugin itself when it {@link #appliesTo} the pod.
   */
  default Optional<ScorePlugin> preScore(PodInfo pod, ClusterSnapshot snapshot) {
    return appliesTo(pod) ? Optional.of(this) : Optional.empty();
  }

  long score(PodInfo pod, NodeInfo node);

  /**
   * Whether this plugin's raw score of a node depends only on what {@code FilterMemo} keys a pod by
   * (its requests and non-zero cpu and memory, tolerations, node selector and affinity), this plugin (its
   * configuration) and that node's {@link NodeInfo}, and its {@link #preScore} decides by the pod
   * alone whether it scores: then a raw score holds for as long as the NodeInfo does
   * ({@link io.gpufleet.engine.scheduler.FilterMemo}); normalisation still runs every cycle.
   */
  default boolean scoresNodeLocal() {
    return false;
  }

  /**
   * The raw scores of the snapshot indices {@code nodes[0..count)} into {@code out[0..count)}, in one
   * call per plugin rather than one per node; an override must give what {@link #score} gives.
   */
  default void scoreAll(PodInfo pod, ClusterSnapshot snapshot, int[] nodes, int count, long[] out) {
    for (int j = 0; j < count; j++) {
      out[j] = score(pod, snapshot.get(nodes[j]));
    }
  }

  /** Rewrites the raw scores of all feasible nodes in place; the default leaves them. */
  default void normalize(PodInfo pod, long[] scores) {}

  /**
   * {@code DefaultNormalizeScore}: scales so the best node gets 100; {@code reverse} makes the
   * lowest raw score best. All zeros stay zero, or become 100 when reversed.
   */
  static void defaultNormalize(long[] scores, boolean reverse) {
    long max = 0;
    for (long s : scores) {
      max = Math.max(max, s);
    }
    if (max == 0) {
      if (reverse) {
        Arrays.fill(scores, MAX_NODE_SCORE);
      }
      return;
    }
    for (int i = 0; i < scores.length; i++) {
      long s = MAX_NODE_SCORE * scores[i] / max;
      scores[i] = reverse ? MAX_NODE_SCORE - s : s;
    }
  }
}
