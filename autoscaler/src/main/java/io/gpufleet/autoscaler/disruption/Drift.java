package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.model.karpenter.NodeClaim;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Drift ({@code K:pkg/controllers/disruption/drift.go}): replaces nodes whose NodeClaim drifted from
 * its NodePool. Empty drifted nodes within the {@code Drifted} budgets go together in one delete;
 * otherwise the first drifted node, by name, whose pods reschedule (on the rest of the cluster plus
 * replacements, any price) is replaced. Eventual: a {@code terminationGracePeriod} lets nodes whose
 * pods block eviction drift out anyway.
 */
final class Drift implements DisruptionMethod {

  private static final NodeFacts.Filter FILTER = (f, now) -> f.node.claim().get().drifted().isPresent();

  private final DisruptionSimulation simulation;

  Drift(DisruptionSimulation simulation) {
    this.simulation = simulation;
  }

  @Override
  public DisruptionCommand.Method kind() {
    return DisruptionCommand.Method.DRIFT;
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
    List<Candidate> empty = chosen.stream().filter(Candidate::isEmpty).toList();
    if (!empty.isEmpty()) {
      return Optional.of(DisruptionSimulation.command(kind(), reason(), empty, List.of(), view, random));
    }
    for (Candidate c : chosen) {
      Optional<List<NodeClaim>> replacements = simulation.simulate(List.of(c), view, false, random);
      if (replacements.isPresent()) {
        return Optional.of(DisruptionSimulation.command(kind(), reason(), List.of(c), replacements.get(), view,
            random));
      }
    }
    return Optional.empty();
  }

  /** Empty candidates go as decided; otherwise their pods must still reschedule, on replacements planned afresh. */
  @Override
  public DisruptionController.Validation validate(DisruptionCommand command, List<Candidate> candidates,
      ClusterView view, RandomGenerator random) {
    if (candidates.stream().allMatch(Candidate::isEmpty)) {
      return new DisruptionController.Validation.Execute(command);
    }
    Optional<List<NodeClaim>> r = simulation.simulate(candidates, view, false, random);
    return r.<DisruptionController.Validation>map(rs -> new DisruptionController.Validation.Execute(
            DisruptionSimulation.withReplacements(command, rs)))
        .orElse(new DisruptionController.Validation.Abandon("pods no longer reschedule"));
  }
}
