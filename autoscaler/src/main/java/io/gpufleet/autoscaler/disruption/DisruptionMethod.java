package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.DisruptionReason;
import io.gpufleet.model.karpenter.NodePool;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * One way Karpenter finds nodes to disrupt, as Karpenter's {@code Method}
 * ({@code K:pkg/controllers/disruption/types.go}): which nodes it considers ({@code ShouldDisrupt}),
 * the command it makes of the candidates ({@code ComputeCommand}), its budget reason and whether
 * it is graceful or eventual ({@code Class}). The controller tries its methods in order and takes
 * the first command; after the validation delay the same method checks it again.
 */
public interface DisruptionMethod {

  /** The method's name in commands and the run record. */
  DisruptionCommand.Method kind();

  /** The budget reason its commands count against (reference §1.6). */
  default DisruptionReason reason() {
    return kind().reason();
  }

  /**
   * Eventual disruption (drift) may take nodes whose pods block eviction when their NodePool has a
   * {@code terminationGracePeriod}; graceful disruption never does ({@code types.go} Class).
   */
  default boolean eventual() {
    return kind().eventual();
  }

  /**
   * Which nodes the method considers. Methods that consider the same nodes return the same filter,
   * so the controller gathers their candidates once per view.
   */
  Filter filter();

  /**
   * The command for this poll, if any, from the candidates its filter admitted (in node order,
   * every candidate filter passed, budgets not yet applied).
   */
  Optional<DisruptionCommand> computeCommand(List<Candidate> candidates, ClusterView view, RandomGenerator random);

  /**
   * The command checked again after the validation delay: {@code candidates} are the command's own,
   * still candidates and within budget. Returns the command to execute (replacements planned
   * afresh) or why not.
   */
  DisruptionController.Validation validate(DisruptionCommand command, List<Candidate> candidates, ClusterView view,
      RandomGenerator random);

  /** {@code ShouldDisrupt}: whether a node of {@code pool} is worth considering at {@code now}. */
  @FunctionalInterface
  interface Filter {
    boolean shouldDisrupt(StateNode node, NodePool pool, Instant now);
  }
}
