package io.gpufleet.sim.scenario;

import io.gpufleet.model.cloud.CapacityType;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** One step of a scenario's timeline. Steps run in order; waits move virtual time on. */
public sealed interface ScenarioAction {

  /** Create or replace objects, as {@code kubectl apply}. A changed Deployment template starts a rollout. */
  record Apply(List<ClusterObject> objects) implements ScenarioAction {
    public Apply {
      objects = List.copyOf(objects);
    }
  }

  /** Set a label on a node (e.g. {@code nvidia.com/device-plugin.config}). */
  record LabelNode(NodeRef node, String key, String value) implements ScenarioAction {}

  record UnlabelNode(NodeRef node, String key) implements ScenarioAction {}

  /** Change a Deployment's, ReplicaSet's, StatefulSet's replicas or a Job's parallelism. */
  record Scale(String workload, int replicas) implements ScenarioAction {}

  /**
   * Delete an object: {@code kind} is Pod, Node, NodeClaim, NodePool, PodDisruptionBudget or a
   * workload kind; {@code name} may carry a namespace as {@code namespace/name}.
   */
  record Delete(String kind, String name) implements ScenarioAction {}

  /**
   * An interruption notice about the node's instance, of a kind the AWS provider's interruption
   * controller handles: EC2 sends it (and, for a spot warning, reclaims the instance two minutes
   * later; for a state change, the instance is gone) and Karpenter's queue receives it.
   */
  record Interrupt(NodeRef node, InterruptionNotice notice) implements ScenarioAction {
    /** An EC2 spot interruption warning. */
    public static Interrupt spot(NodeRef node) {
      return new Interrupt(node, InterruptionNotice.SPOT_INTERRUPTION);
    }
  }

  /**
   * EC2 has no capacity for the matching offerings (an instance type, in a zone and of a capacity
   * type where given) from now on, for {@code window} or to the end of the run: a launch there fails
   * with {@code InsufficientInstanceCapacity}, as CreateFleet reports it.
   */
  record InsufficientCapacity(String instanceType, Optional<String> zone, Optional<CapacityType> capacityType,
      Optional<Duration> window) implements ScenarioAction {}

  /**
   * EC2 ends a capacity reservation {@code in} from now (a Capacity Block reaching its end, an ODCR
   * cancelled or expiring): a capacity block's NodeClaims are deleted from 40 minutes before, its
   * instances reclaimed from 30 minutes before; an ODCR's instances go on as on-demand.
   */
  record ExpireReservation(String id, Duration in) implements ScenarioAction {}

  record Wait(Duration duration) implements ScenarioAction {}

  /** Wait until the condition holds, at most {@code timeout}; a timeout is a failed expectation. */
  record WaitUntil(Condition condition, Duration timeout) implements ScenarioAction {}

  /** Check a condition now; the outcome goes into the result. */
  record Expect(String description, Condition condition) implements ScenarioAction {}

  /**
   * Check a condition from now on, after every event, while the timeline goes on: it must hold
   * throughout ({@code never} false) or never hold ({@code never} true), for {@code window} or to the
   * end of the run. The first event that breaks it fails the expectation, at that time; the run lasts
   * at least until the window closes.
   */
  record Watch(String description, Condition condition, boolean never, Optional<Duration> window)
      implements ScenarioAction {}

  /**
   * Keep the cluster as it is now in the result, under a label: what a step-by-step report shows
   * after each step. Changes nothing and takes no time.
   */
  record Checkpoint(String label) implements ScenarioAction {}
}
