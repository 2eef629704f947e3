package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.pod.Pod;
import java.util.List;

/**
 * A node Karpenter may disrupt: initialised, managed by a NodePool that still exists, not already
 * leaving, and every pod on it willing to move (reference §1.5 candidate filter).
 *
 * @param disruptionCost {@code 1 + Σ max(0, pod eviction cost)} over the reschedulable pods ({@link Candidates#disruptionCost})
 */
public record Candidate(StateNode node, NodeClaim claim, NodePool pool, List<Pod> reschedulable, double price,
    double disruptionCost) {

  public Candidate {
    reschedulable = List.copyOf(reschedulable);
  }

  public String name() {
    return claim.name();
  }

  public boolean isEmpty() {
    return reschedulable.isEmpty();
  }
}
