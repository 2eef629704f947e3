package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.state.ClusterView;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Emptiness ({@code K:pkg/controllers/disruption/emptiness.go}): deletes empty nodes past
 * {@code consolidateAfter}, under any consolidation policy, as many as the {@code Empty} budgets
 * allow, in one command. Nothing needs rescheduling, so no simulation runs.
 */
final class Emptiness implements DisruptionMethod {

  static final NodeFacts.Filter FILTER = (f, now) -> f.empty && f.consolidatableBy(now);

  private final DisruptionSimulation simulation;

  Emptiness(DisruptionSimulation simulation) {
    this.simulation = simulation;
  }

  @Override
  public DisruptionCommand.Method kind() {
    return DisruptionCommand.Method.EMPTINESS;
  }

  @Override
  public Filter filter() {
    return FILTER;
  }

  @Override
  public Optional<DisruptionCommand> computeCommand(List<Candidate> candidates, ClusterView view,
      RandomGenerator random) {
    List<Candidate> chosen = Candidates.inNameOrderWithinBudgets(candidates,
        () -> simulation.budgets(view, reason()));
    if (chosen.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(DisruptionSimulation.command(kind(), reason(), chosen, List.of(), view, random));
  }

  /** Every candidate must still be empty and past {@code consolidateAfter}. */
  @Override
  public DisruptionController.Validation validate(DisruptionCommand command, List<Candidate> candidates,
      ClusterView view, RandomGenerator random) {
    for (Candidate c : candidates) {
      if (!c.isEmpty() || !Candidates.consolidatable(c.node(), c.pool(), view.now())) {
        return new DisruptionController.Validation.Abandon(c.name() + " is no longer empty");
      }
    }
    return new DisruptionController.Validation.Execute(command);
  }
}
