package io.gpufleet.engine.scheduler.plugin;

import java.util.List;

/**
 * {@code NodeResourcesFitArgs.scoringStrategy}: how a node's utilisation after placing the pod
 * becomes a 0..100 score, per resource, then a weighted integer average.
 */
public sealed interface ScoringStrategy {

  /** kube-scheduler's default: cpu and memory, weight 1 each. */
  List<ResourceWeight> DEFAULT_RESOURCES = List.of(new ResourceWeight("cpu", 1), new ResourceWeight("memory", 1));

  List<ResourceWeight> resources();

  /** One resource's score, 0..100, from its requested amount (this pod included) and allocatable (> 0). */
  long resourceScore(long requested, long allocatable);

  /**
   * Whether a resource scoring 0 still counts in the weighted average (it does for Least- and
   * MostAllocated; RequestedToCapacityRatio leaves it out).
   */
  default boolean averagesZeroScores() {
    return true;
  }

  /** Whether the weighted average is rounded to nearest (RequestedToCapacityRatio) or truncated. */
  default boolean roundsAverage() {
    return false;
  }

  /** Combines per-resource requested/allocatable pairs (allocatable 0 already removed) into a score. */
  default long score(long[] requested, long[] allocatable, long[] weights, int n) {
    long nodeScore = 0;
    long weightSum = 0;
    for (int i = 0; i < n; i++) {
      long s = resourceScore(requested[i], allocatable[i]);
      if (s > 0 || averagesZeroScores()) {
        nodeScore += s * weights[i];
        weightSum += weights[i];
      }
    }
    return average(nodeScore, weightSum);
  }

  default long average(long weightedSum, long weightSum) {
    if (weightSum == 0) {
      return 0;
    }
    return roundsAverage() ? Math.round((double) weightedSum / weightSum) : weightedSum / weightSum;
  }

  /** Spreads: {@code (allocatable - requested) * 100 / allocatable}. The default. */
  record LeastAllocated(List<ResourceWeight> resources) implements ScoringStrategy {
    public LeastAllocated {
      resources = List.copyOf(resources);
    }

    @Override
    public long resourceScore(long requested, long allocatable) {
      return requested > allocatable ? 0 : (allocatable - requested) * ScorePlugin.MAX_NODE_SCORE / allocatable;
    }
  }

  /** Packs: {@code min(requested, allocatable) * 100 / allocatable}. */
  record MostAllocated(List<ResourceWeight> resources) implements ScoringStrategy {
    public MostAllocated {
      resources = List.copyOf(resources);
    }

    @Override
    public long resourceScore(long requested, long allocatable) {
      return Math.min(requested, allocatable) * ScorePlugin.MAX_NODE_SCORE / allocatable;
    }
  }

  /**
   * A piecewise-linear function of utilisation (0..100) to score (0..10, scaled by 10). Resources
   * that score 0 leave the average; the average is rounded to nearest.
   */
  record RequestedToCapacityRatio(List<ResourceWeight> resources, List<ShapePoint> shape)
      implements ScoringStrategy {

    /** One point of the shape: utilisation 0..100 maps to score 0..10. */
    public record ShapePoint(long utilization, long score) {
      public ShapePoint {
        if (utilization < 0 || utilization > 100) {
          throw new IllegalArgumentException("shape utilization must be in 0..100, found " + utilization);
        }
        if (score < 0 || score > 10) {
          throw new IllegalArgumentException("shape score must be in 0..10, found " + score);
        }
      }
    }

    public RequestedToCapacityRatio {
      resources = List.copyOf(resources);
      shape = List.copyOf(shape);
      if (shape.isEmpty()) {
        throw new IllegalArgumentException("shape must have at least one point");
      }
      for (int i = 1; i < shape.size(); i++) {
        if (shape.get(i).utilization() <= shape.get(i - 1).utilization()) {
          throw new IllegalArgumentException("shape utilization values must be strictly increasing");
        }
      }
    }

    /** The bin-packing shape of the Kubernetes documentation: 0% → 0, 100% → 10. */
    public static RequestedToCapacityRatio binPacking(List<ResourceWeight> resources) {
      return new RequestedToCapacityRatio(resources, List.of(new ShapePoint(0, 0), new ShapePoint(100, 10)));
    }

    long brokenLinear(long p) {
      // Scores in the shape are 0..10; kube-scheduler scales them by MaxNodeScore / 10 first.
      ShapePoint first = shape.getFirst();
      if (p < first.utilization()) {
        return first.score() * 10;
      }
      for (int i = 1; i < shape.size(); i++) {
        ShapePoint a = shape.get(i - 1);
        ShapePoint b = shape.get(i);
        if (p <= b.utilization()) {
          long sa = a.score() * 10;
          long sb = b.score() * 10;
          return sa + (sb - sa) * (p - a.utilization()) / (b.utilization() - a.utilization());
        }
      }
      return shape.getLast().score() * 10;
    }

    @Override
    public long resourceScore(long requested, long allocatable) {
      return requested > allocatable ? brokenLinear(100) : brokenLinear(requested * 100 / allocatable);
    }

    @Override
    public boolean averagesZeroScores() {
      return false;
    }

    @Override
    public boolean roundsAverage() {
      return true;
    }
  }
}
