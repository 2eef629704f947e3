package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.model.karpenter.NodeClaim;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Single-node consolidation ({@code K:pkg/controllers/disruption/singlenodeconsolidation.go}): the
 * first ranked candidate whose pods fit on the rest of the cluster, deleted, or replaced by one
 * cheaper node. Tried last, after multi-node consolidation found nothing.
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
    for (Candidate c : Consolidation.ranked(candidates, view)) {
      Optional<List<NodeClaim>> r = simulation.simulate(List.of(c), view, true, random);
      if (r.isPresent()) {
        return Optional.of(DisruptionSimulation.command(kind(), reason(), List.of(c), r.get(), view, random));
      }
    }
    return Optional.empty();
  }

  @Override
  public DisruptionController.Validation validate(DisruptionCommand command, List<Candidate> candidates,
      ClusterView view, RandomGenerator random) {
    return Consolidation.validate(command, candidates, view, random, simulation);
  }
}
