package io.gpufleet.sim.replay;

import io.gpufleet.engine.placement.NodeImage;
import io.gpufleet.engine.placement.PlacementPolicy;
import io.gpufleet.engine.placement.PodShape;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * The scheduler's filter-score-select over all nodes, with scores cached per pod shape. A score is a
 * pure function of (node image, pod shape), and one placement changes one node, so for a shape seen
 * before only the nodes changed since are scored again: over a replay that is a few dozen scorings
 * per pod instead of one per node.
 *
 * <p>Ties on the best score go to the node of lowest {@code rank}. The paper's scheduler picks the
 * lexicographically smallest node name among ties, and its simulator prefixes every node name with
 * a seeded random permutation index, so ties follow one random node order per run; {@code rank} is
 * that order.
 */
final class ScoreBoard {

  private static final double UNFIT = Double.NEGATIVE_INFINITY;

  private final NodeImage[] nodes;
  private final int[] rank;
  private final PlacementPolicy policy;
  private final Map<PodShape, Scores> byShape = new HashMap<>();
  private int[] changeLog = new int[1024];
  private int changes;

  private static final class Scores {
    final double[] score;
    int seenChanges = -1;

    Scores(int nodes) {
      score = new double[nodes];
    }
  }

  ScoreBoard(NodeImage[] nodes, int[] rank, PlacementPolicy policy) {
    if (rank.length != nodes.length) {
      throw new IllegalArgumentException("one rank per node");
    }
    this.nodes = nodes;
    this.rank = rank.clone();
    this.policy = policy;
  }

  /** Records that {@code node}'s image was replaced. */
  void changed(int node) {
    if (changes == changeLog.length) {
      changeLog = Arrays.copyOf(changeLog, changes * 2);
    }
    changeLog[changes++] = node;
  }

  /** The node the pod goes to, or -1 if it fits nowhere. */
  int select(PodShape pod, RandomGenerator rng) {
    Scores s = byShape.computeIfAbsent(pod, k -> new Scores(nodes.length));
    double[] score = s.score;
    if (s.seenChanges < 0 || changes - s.seenChanges >= nodes.length) {
      for (int i = 0; i < nodes.length; i++) {
        score[i] = scoreOf(i, pod);
      }
    } else {
      for (int k = s.seenChanges; k < changes; k++) {
        int i = changeLog[k];
        score[i] = scoreOf(i, pod);
      }
    }
    s.seenChanges = changes;
    return policy.drawsNode() ? draw(score, rng) : best(score);
  }

  private int best(double[] score) {
    int chosen = -1;
    double top = UNFIT;
    int topRank = Integer.MAX_VALUE;
    for (int i = 0; i < score.length; i++) {
      double v = score[i];
      if (v != UNFIT && (v > top || (v == top && rank[i] < topRank))) {
        chosen = i;
        top = v;
        topRank = rank[i];
      }
    }
    return chosen;
  }

  private static int draw(double[] score, RandomGenerator rng) {
    int fit = 0;
    for (double v : score) {
      if (v != UNFIT) {
        fit++;
      }
    }
    if (fit == 0) {
      return -1;
    }
    int pick = rng.nextInt(fit);
    for (int i = 0; i < score.length; i++) {
      if (score[i] != UNFIT && pick-- == 0) {
        return i;
      }
    }
    throw new IllegalStateException("unreachable");
  }

  private double scoreOf(int node, PodShape pod) {
    NodeImage n = nodes[node];
    return n.fits(pod) ? policy.score(n, pod) : UNFIT;
  }
}
