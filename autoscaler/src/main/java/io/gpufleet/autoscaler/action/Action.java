package io.gpufleet.autoscaler.action;

import io.gpufleet.autoscaler.disruption.DisruptionCommand;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.taint.Taint;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What Karpenter decided, as data for the simulator to apply. Karpenter never launches, taints or
 * evicts anything itself here: it returns these and the runtime makes them so.
 */
public sealed interface Action {

  /**
   * Create a NodeClaim; the cloud provider launches it. {@code pods} are the pods it was planned for
   * (Karpenter nominates them); {@code command} names the disruption it replaces capacity for;
   * {@code fitting} names the instance types that could have hosted the pods, cheapest first with
   * their on-demand price: the reason for the choice.
   */
  record LaunchNodeClaim(NodeClaim claim, List<String> pods, Optional<String> command, List<String> fitting)
      implements Action {
    public LaunchNodeClaim {
      pods = List.copyOf(pods);
      fitting = List.copyOf(fitting);
    }
  }

  /** Run the provisioner again {@code after} this long, for pods a round left for a later one. */
  record RetryProvisioning(Duration after) implements Action {}

  /** The node of a NodeClaim joined: sync labels and taints, drop {@code karpenter.sh/unregistered}. */
  record MarkRegistered(String claim, String node) implements Action {}

  /** Every initialisation check passed (reference §1.3): label {@code karpenter.sh/initialized=true}. */
  record MarkInitialized(String claim) implements Action {}

  record MarkDrifted(String claim, String reason) implements Action {}

  /** Set the deletion timestamp: termination (drain, then instance termination) follows. */
  record DeleteNodeClaim(String claim, RemovalReason reason) implements Action {}

  /** The node is drained (or its grace period is over): terminate the instance, remove node and claim. */
  record TerminateInstance(String claim) implements Action {}

  record TaintNode(String node, Taint taint) implements Action {}

  record UntaintNode(String node, Taint taint) implements Action {}

  /**
   * Evict a pod: through the Eviction API ({@code forced} false: the API has already been consulted
   * and the PDB allows it) or deleted once its own grace would outlast the node's termination time,
   * with {@code gracePeriod} the node's remaining grace ({@code forceDelete} in
   * {@code K:pkg/controllers/node/termination/terminator/eviction.go}); empty when not forced.
   */
  record Evict(String pod, String node, boolean forced, RemovalReason reason, Optional<Duration> gracePeriod)
      implements Action {
    public Evict {
      Objects.requireNonNull(gracePeriod, "gracePeriod");
      if (forced != gracePeriod.isPresent()) {
        throw new IllegalArgumentException("a forced deletion, and only one, carries a grace period");
      }
    }

    /** An eviction through the Eviction API. */
    public static Evict viaApi(String pod, String node, RemovalReason reason) {
      return new Evict(pod, node, false, reason, Optional.empty());
    }

    /** A deletion granting {@code gracePeriod}, bypassing PDBs and do-not-disrupt. */
    public static Evict forced(String pod, String node, RemovalReason reason, Duration gracePeriod) {
      return new Evict(pod, node, true, reason, Optional.of(gracePeriod));
    }
  }

  /** Keep an offering out of launches until {@code until} (reference §1.4, §1.7). */
  record MarkOfferingUnavailable(String instanceType, CapacityType capacityType, String zone, Instant until)
      implements Action {}

  /** A disruption decided now, to be validated after the command validation delay (reference §1.5). */
  record ProposeDisruption(DisruptionCommand command) implements Action {}

  /** A validated disruption: taint its candidates, launch its replacements, wait for them. */
  record ExecuteDisruption(DisruptionCommand command) implements Action {}

  /** A disruption that no longer holds, or whose replacements failed: undo its taints. */
  record AbandonDisruption(String command, String reason) implements Action {}

  /** A Kubernetes event Karpenter records, e.g. {@code FailedScheduling} on a pod it cannot provision for. */
  record RecordEvent(String object, String reason, String message) implements Action {}
}
