package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.model.karpenter.NodeClaim;
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
    if (candidates.isEmpty()) {
      return Optional.empty(); // no budget to read: most polls of a quiet cluster
    }
    Map<String, Integer> allowed = simulation.budgets(view, reason());
    Optional<BalancedScoring> balanced = BalancedScoring.forPoll(candidates, view);
    for (Candidate c : simulation.sorted(candidates)) {
      if (!withinBudget(c, allowed) || !balanced.map(b -> b.canPassThreshold(c)).orElse(true)) {
        continue;
      }
      Optional<List<NodeClaim>> r = simulation.consolidate(c, view, random, why -> { });
      if (r.isEmpty()) {
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
