package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.NodeClaim;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The {@code Balanced} consolidation policy's scoring ({@code K:pkg/controllers/disruption/balanced.go},
 * design {@code designs/balanced-consolidation.md}): a consolidation move of a Balanced NodePool is
 * taken only when the share of the pool's cost it saves, over the share of the pool's disruption cost
 * it causes, reaches {@code 1/k} with {@code k = 2} ({@code BalancedK}, {@code K:pkg/apis/v1/nodepool.go}).
 * A node's disruption cost is {@code 1 + Σ max(0, EvictionCost(pod))} over its non-daemon pods; the
 * pool's totals run over every node of the pool, candidate or not. Moves of other policies pass.
 *
 * @param totals each NodePool's totals, by name ({@code computeNodePoolTotals})
 */
public record BalancedScoring(Map<String, Totals> totals) {

  /** {@code BalancedK}: a move passes at a score of at least {@code 1/k}. */
  public static final int K = 2;

  /** {@code PerNodeBaseDisruptionCost}: draining a node costs this much besides its pods. */
  public static final double PER_NODE_BASE_DISRUPTION_COST = 1.0;

  /** {@code NodePoolTotals}: what the pool's nodes cost, and what disrupting all of them would. */
  public record Totals(double totalCost, double totalDisruptionCost) {}

  /** {@code ScoreResult}: the move's shares of the pool's cost and disruption. */
  public record Score(double savingsFraction, double disruptionFraction, int k) {

    /** Savings over disruption; 0 without savings, infinite without disruption. */
    public double score() {
      if (savingsFraction <= 0) {
        return 0;
      }
      if (disruptionFraction == 0) {
        return Double.POSITIVE_INFINITY;
      }
      return savingsFraction / disruptionFraction;
    }

    public double threshold() {
      return 1.0 / k;
    }

    public boolean approved() {
      return score() >= threshold();
    }

    /** The {@code ConsolidationApproved} event's message ({@code K:.../disruption/events/events.go}). */
    public String message() {
      return String.format(Locale.ROOT, "score %.2f >= threshold %.2f (k: %d, savings %.1f%%, disruption %.1f%%)",
          score(), threshold(), k, savingsFraction * 100, disruptionFraction * 100);
    }
  }

  /** One move's verdict: approved only if every Balanced pool it touches approves; their scores. */
  public record Verdict(boolean approved, Map<String, Score> perPool) {

    /**
     * The {@code ConsolidationApproved} events of an approved move, message by object: a
     * single-candidate move's on its NodeClaim ({@code ApproveCommand}), a multi-node move's on each
     * Balanced NodePool ({@code EmitMultiNodeEvents}).
     */
    public Map<String, String> approvals(List<Candidate> candidates) {
      Map<String, String> out = new TreeMap<>();
      perPool.forEach((pool, score) -> {
        if (score.approved()) {
          out.put(candidates.size() == 1 ? candidates.getFirst().name() : pool, score.message());
        }
      });
      return out;
    }
  }

  /** {@code ScoreMove}: no totals to normalise against scores 0. */
  public static Score scoreMove(double savings, double disruptionCost, Totals totals, int k) {
    if (totals.totalCost() <= 0 || totals.totalDisruptionCost() <= 0) {
      return new Score(0, 0, k);
    }
    return new Score(savings / totals.totalCost(), disruptionCost / totals.totalDisruptionCost(), k);
  }

  /**
   * {@code computeNodePoolTotals}: per NodePool, the price of every claim it has (Karpenter's
   * ClusterCost) and the disruption cost of every node it has.
   */
  public static BalancedScoring of(ClusterView view) {
    Map<String, double[]> sums = new TreeMap<>();
    for (StateNode n : view.nodes()) {
      if (n.claim().isEmpty()) {
        continue;
      }
      NodeClaim c = n.claim().get();
      double[] s = sums.computeIfAbsent(c.nodePool(), p -> new double[2]);
      s[0] += c.pricePerHour();
      s[1] += Candidates.disruptionCost(n.reschedulablePods());
    }
    Map<String, Totals> out = new TreeMap<>();
    sums.forEach((pool, s) -> out.put(pool, new Totals(s[0], s[1])));
    return new BalancedScoring(out);
  }

  /** The scoring for this poll, if any candidate's NodePool is Balanced (other moves all pass). */
  static Optional<BalancedScoring> forPoll(List<Candidate> candidates, ClusterView view) {
    return candidates.stream().anyMatch(BalancedScoring::balanced) ? Optional.of(of(view))
        : Optional.empty();
  }

  static boolean balanced(Candidate c) {
    return c.pool().disruption().consolidationPolicy() == ConsolidationPolicy.BALANCED;
  }

  /**
   * {@code CanPassThreshold}: whether deleting the candidate outright, the best any move of it can
   * do, would pass; always for other policies.
   */
  public boolean canPassThreshold(Candidate c) {
    Totals t = totals.get(c.pool().name());
    if (!balanced(c) || t == null || t.totalCost() <= 0) {
      return true;
    }
    return scoreMove(c.price(), c.disruptionCost(), t, K).approved();
  }

  /**
   * {@code EvaluateBalancedMove}: each Balanced pool scored on its share of the net savings (by its
   * candidates' share of the source price) and its candidates' disruption cost.
   */
  public Verdict evaluate(List<Candidate> candidates, double savings) {
    if (candidates.isEmpty()) {
      return new Verdict(false, Map.of());
    }
    Map<String, List<Candidate>> byPool = new LinkedHashMap<>();
    for (Candidate c : candidates) {
      byPool.computeIfAbsent(c.pool().name(), p -> new ArrayList<>()).add(c);
    }
    double sourceCost = candidates.stream().mapToDouble(Candidate::price).sum();
    boolean approved = true;
    Map<String, Score> perPool = new LinkedHashMap<>();
    for (var e : byPool.entrySet()) {
      if (!balanced(e.getValue().getFirst())) {
        continue;
      }
      double poolCost = e.getValue().stream().mapToDouble(Candidate::price).sum();
      double poolSavings = sourceCost > 0 && byPool.size() > 1 ? savings * (poolCost / sourceCost) : savings;
      double disruption = e.getValue().stream().mapToDouble(Candidate::disruptionCost).sum();
      Score s = scoreMove(poolSavings, disruption, totals.getOrDefault(e.getKey(), new Totals(0, 0)), K);
      perPool.put(e.getKey(), s);
      approved &= s.approved();
    }
    return new Verdict(approved, perPool);
  }

  /**
   * The verdict on replacing these candidates with {@code replacements} (none: a delete): its savings
   * are the candidates' price less the replacements' ({@code EstimatedSavings}).
   */
  public Verdict evaluate(List<Candidate> candidates, List<NodeClaim> replacements) {
    return evaluate(candidates, candidates.stream().mapToDouble(Candidate::price).sum()
        - replacements.stream().mapToDouble(NodeClaim::pricePerHour).sum());
  }
}
