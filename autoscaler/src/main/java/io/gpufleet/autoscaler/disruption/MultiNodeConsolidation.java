package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.model.karpenter.NodeClaim;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Multi-node consolidation ({@code K:pkg/controllers/disruption/multinodeconsolidation.go}): the
 * largest prefix of the ranked candidates (at least two) whose pods fit on the rest of the cluster
 * plus at most one cheaper replacement, found by upstream's binary search over the prefix length
 * ({@code firstNConsolidationOption}); a replacement never keeps a type being removed at its price
 * or dearer ({@code filterOutSameInstanceType}, in {@link DisruptionSimulation}).
 */
final class MultiNodeConsolidation implements DisruptionMethod {

  private final DisruptionSimulation simulation;

  MultiNodeConsolidation(DisruptionSimulation simulation) {
    this.simulation = simulation;
  }

  @Override
  public DisruptionCommand.Method kind() {
    return DisruptionCommand.Method.MULTI_NODE_CONSOLIDATION;
  }

  @Override
  public Filter filter() {
    return Consolidation.FILTER;
  }

  @Override
  public Optional<DisruptionCommand> computeCommand(List<Candidate> all, ClusterView view, RandomGenerator random) {
    // firstNConsolidationOption: prefixes [0, mid] for mid in [1, max], so two candidates at least;
    // max is one less than the candidates when they fit in the batch of multiNodeMaxCandidates, the
    // batch size otherwise (upstream then tries up to batch + 1, as written). So no more than the
    // batch and one are taken within budgets: with more, n is past the batch all the same.
    int maxCandidates = simulation.settings().multiNodeMaxCandidates();
    Consolidation.Budgeted budgeted = Consolidation.withinBudgets(simulation.sorted(all), view, simulation,
        Math.max(maxCandidates, 0) + 1);
    List<Candidate> candidates = budgeted.first();
    if (candidates.size() < 2) {
      return Optional.empty();
    }
    int n = candidates.size();
    int batch = Math.min(n, maxCandidates);
    int lo = 1;
    int hi = n <= batch ? n - 1 : batch;
    // A prefix whose move a Balanced NodePool rejects counts as one that does not consolidate
    // (firstNConsolidationOption, ApproveCommand; BalancedScoring): any of every candidate within budgets.
    Optional<BalancedScoring> balanced = budgeted.balanced() ? Optional.of(BalancedScoring.of(view)) : Optional.empty();
    List<Candidate> best = null;
    List<NodeClaim> bestReplacements = null;
    Map<String, String> bestApprovals = Map.of();
    while (lo <= hi) {
      int mid = (lo + hi) / 2;
      List<Candidate> prefix = candidates.subList(0, mid + 1);
      Optional<List<NodeClaim>> r = simulation.simulate(prefix, view, true, random);
      Optional<BalancedScoring.Verdict> verdict = r.flatMap(x -> balanced.map(b -> b.evaluate(prefix, x)));
      if (r.isPresent() && verdict.map(BalancedScoring.Verdict::approved).orElse(true)) {
        best = List.copyOf(prefix);
        bestReplacements = r.get();
        bestApprovals = verdict.map(v -> v.approvals(prefix)).orElse(Map.of());
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    if (best == null || best.size() < 2) {
      return Optional.empty();
    }
    return Optional.of(DisruptionSimulation.command(kind(), reason(), best, bestReplacements, view, random)
        .withApprovals(bestApprovals));
  }

  @Override
  public DisruptionController.Validation validate(DisruptionCommand command, List<Candidate> candidates,
      ClusterView view, RandomGenerator random) {
    return Consolidation.validate(command, candidates, view, random, simulation);
  }
}
