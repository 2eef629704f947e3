package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.model.karpenter.NodeClaim;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Single-node consolidation ({@code K:pkg/controllers/disruption/singlenodeconsolidation.go}): the
 * first ranked candidate whose NodePool's budget allows a disruption and whose pods fit on the rest
 * of the cluster, deleted, or replaced by one cheaper node. Tried last, after multi-node
 * consolidation found nothing.
 */
final class SingleNodeConsolidation implements DisruptionMethod {

  private final DisruptionSimulation simulation;
  /** Why each candidate the last search simulated in vain could not go, and the view it searched. */
  private ClusterView searched;
  private final Map<Candidate, String> refused = new IdentityHashMap<>();

  SingleNodeConsolidation(DisruptionSimulation simulation) {
    this.simulation = simulation;
  }

  @Override
  public DisruptionCommand.Method kind() {
    return DisruptionCommand.Method.SINGLE_NODE_CONSOLIDATION;
  }

  @Override
  public Filter filter() {
    return Consolidation.FILTER;
  }

  @Override
  public Optional<DisruptionCommand> computeCommand(List<Candidate> candidates, ClusterView view,
      RandomGenerator random) {
    // ComputeCommands (K:pkg/controllers/disruption/singlenodeconsolidation.go): every candidate in
    // order, skipping one only while its NodePool's budget for the reason is used up; a candidate
    // that yields no command uses no budget, since a command holds one candidate. Upstream also
    // abandons the search after SingleNodeConsolidationTimeoutDuration (3 min) of computing; the
    // twin's search takes no simulated time, so that timeout never fires here.
    // A Balanced NodePool's candidate is skipped when even deleting it would not pass, and its move
    // is taken only when it passes (CanPassThreshold, ApproveCommand; BalancedScoring).
    if (searched != view) {
      searched = view;
      refused.clear();
    }
    Map<String, Integer> allowed = DisruptionBudgets.allowed(view, reason());
    Optional<BalancedScoring> balanced = BalancedScoring.forPoll(candidates, view);
    for (Candidate c : Consolidation.sorted(candidates)) {
      if (!withinBudget(c, allowed) || !balanced.map(b -> b.canPassThreshold(c)).orElse(true)) {
        continue;
      }
      StringBuilder why = new StringBuilder();
      Optional<List<NodeClaim>> r = simulation.simulate(List.of(c), view, true, random, why::append);
      if (r.isEmpty()) {
        refused.put(c, why.toString());
        continue;
      }
      Optional<BalancedScoring.Verdict> verdict = balanced.map(b -> b.evaluate(List.of(c), r.get()));
      if (verdict.map(BalancedScoring.Verdict::approved).orElse(true)) {
        return Optional.of(DisruptionSimulation.command(kind(), reason(), List.of(c), r.get(), view, random)
            .withApprovals(verdict.map(v -> v.approvals(List.of(c))).orElse(Map.of())));
      }
    }
    return Optional.empty();
  }

  /**
   * Why the last search over {@code view} found that {@code c} cannot go, when it simulated it in
   * vain: the same simulation of the same candidate over the same view says the same (its random
   * draws only name a replacement, and there is none), so explaining the node need not run it again.
   */
  Optional<String> refusal(Candidate c, ClusterView view) {
    return searched == view ? Optional.ofNullable(refused.get(c)) : Optional.empty();
  }

  /** Whether {@code c}'s NodePool may still have a node disrupted for the reason. */
  static boolean withinBudget(Candidate c, Map<String, Integer> allowed) {
    return allowed.getOrDefault(c.pool().name(), 0) > 0;
  }

  @Override
  public DisruptionController.Validation validate(DisruptionCommand command, List<Candidate> candidates,
      ClusterView view, RandomGenerator random) {
    return Consolidation.validate(command, candidates, view, random, simulation);
  }
}
