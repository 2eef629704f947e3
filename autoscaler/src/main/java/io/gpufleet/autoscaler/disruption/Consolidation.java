package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.DisruptionReason;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodePool;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * What multi- and single-node consolidation share ({@code K:pkg/controllers/disruption/consolidation.go}):
 * the nodes they consider, the order they try them in, and the check after the validation delay.
 */
final class Consolidation {

  /**
   * Nodes of NodePools that consolidate more than empty nodes, not empty (emptiness takes those),
   * and past {@code consolidateAfter}. One instance, so both methods' candidates are gathered once.
   */
  static final NodeFacts.Filter FILTER = (f, now) ->
      f.pool.disruption().consolidationPolicy() != ConsolidationPolicy.WHEN_EMPTY && !f.empty
          && f.consolidatableBy(now);

  private Consolidation() {}

  /**
   * Why the NodePool's settings keep consolidation off its non-empty nodes, in the words of
   * consolidation's {@code ShouldDisrupt} ({@code K:pkg/controllers/disruption/consolidation.go}):
   * {@code consolidateAfter: Never} first, then a policy other than WhenEmptyOrUnderutilized.
   */
  static Optional<String> disabledBy(NodePool pool) {
    if (pool.disruption().consolidateAfter().isEmpty()) {
      return Optional.of("NodePool \"" + pool.name() + "\" has consolidation disabled");
    }
    if (pool.disruption().consolidationPolicy() != ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED) {
      return Optional.of("NodePool \"" + pool.name() + "\" has non-empty consolidation disabled");
    }
    return Optional.empty();
  }

  /** The candidates most worth removing first, cut to the budgets for {@code Underutilized}. */
  static List<Candidate> ranked(List<Candidate> candidates, ClusterView view) {
    return withinBudgets(sorted(candidates), view);
  }

  /** {@code sorted} (as {@link #sorted} orders them) cut to the budgets for {@code Underutilized}. */
  static List<Candidate> withinBudgets(List<Candidate> sorted, ClusterView view) {
    return Candidates.withinBudgets(sorted, view, DisruptionReason.UNDERUTILIZED);
  }

  /** The candidates most worth removing first, budgets not applied. */
  static List<Candidate> sorted(List<Candidate> candidates) {
    List<Candidate> out = new ArrayList<>(candidates);
    // Price per unit of disruption, highest first (reference §1.5), then name for a stable order.
    out.sort(Comparator.comparingDouble((Candidate c) -> c.price() / c.disruptionCost()).reversed()
        .thenComparing(Candidate::name));
    return out;
  }

  /**
   * Still consolidatable and not emptied meanwhile, and the simulation still reaches the same kind
   * of decision (delete or replace); the replacement is planned afresh.
   */
  static DisruptionController.Validation validate(DisruptionCommand command, List<Candidate> candidates,
      ClusterView view, RandomGenerator random, DisruptionSimulation simulation) {
    for (Candidate c : candidates) {
      if (c.isEmpty() || !Candidates.consolidatable(c.node(), c.pool(), view.now())) {
        return new DisruptionController.Validation.Abandon(c.name() + " is no longer consolidatable");
      }
    }
    Optional<List<NodeClaim>> r = simulation.simulate(candidates, view, true, random);
    if (r.isEmpty() || r.get().isEmpty() != command.isDelete()) {
      return new DisruptionController.Validation.Abandon("the consolidation decision changed");
    }
    return new DisruptionController.Validation.Execute(DisruptionSimulation.withReplacements(command, r.get()));
  }
}
