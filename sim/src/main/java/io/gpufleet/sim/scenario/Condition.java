package io.gpufleet.sim.scenario;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.sim.record.RunRecord;
import java.util.List;
import java.util.Optional;

/**
 * Something a scenario waits for or expects about the cluster, evaluated on its current image.
 * Workloads are named {@code name} or {@code Kind/name} (namespace {@code default}) or
 * {@code Kind/namespace/name}.
 */
public sealed interface Condition {

  /** Some pod of the workload is running on the node. */
  record PodRunningOn(String workload, NodeRef node) implements Condition {}

  /** A pod, by {@code name} (namespace {@code default}) or {@code namespace/name}, is Ready. */
  record PodReady(String pod) implements Condition {}

  /** How many of the workload's pods are Ready. */
  record ReadyPods(String workload, Comparison comparison, int count) implements Condition {}

  /** How many nodes match the selector (nodes being deleted included, until they are gone). */
  record NodeCount(LabelSelector selector, Comparison comparison, int count) implements Condition {}

  /** The node's NodeClaim is Initialized (unmanaged nodes count once Ready). */
  record NodeInitialized(NodeRef node) implements Condition {}

  /** The node's allocatable amount of a resource, e.g. {@code nvidia.com/gpu}. */
  record ResourceAdvertised(NodeRef node, String resource, Comparison comparison, long quantity)
      implements Condition {}

  /** How many pods are waiting for a node. */
  record PendingPods(Comparison comparison, int count) implements Condition {}

  /** How many NodeClaims match the selector on their labels (those being deleted included, until gone). */
  record NodeClaimCount(LabelSelector selector, Comparison comparison, int count) implements Condition {}

  /**
   * How many entries of the run record so far match: of a record type ({@code KarpenterEvent},
   * {@code PodEvicted}, ...), with a Kubernetes event reason (a Karpenter event's, e.g.
   * {@code Unconsolidatable}), about an object, each only where given.
   */
  record Events(Optional<RunRecord.Kind> type, Optional<String> reason, Optional<String> object,
      Comparison comparison, int count) implements Condition {}

  /**
   * How many NodeClaims Karpenter has started deleting so far, by the reason (its removal reason:
   * {@code Empty}, {@code Underutilized}, {@code Drifted}, {@code Expired}, {@code Interrupted}, ...)
   * and the disruption method whose command deleted them ({@code Emptiness}, {@code Drift},
   * {@code MultiNodeConsolidation}, {@code SingleNodeConsolidation}), each only where given.
   */
  record Disruptions(Optional<String> method, Optional<String> reason, Comparison comparison, int count)
      implements Condition {}

  /** How many pods were evicted so far (forced deletions at a grace deadline included), by reason where given. */
  record Evictions(Optional<String> reason, Comparison comparison, int count) implements Condition {}

  /** What the run's instances have cost so far, in dollars. */
  record Cost(Comparison comparison, double dollars) implements Condition {}

  record All(List<Condition> conditions) implements Condition {
    public All {
      conditions = List.copyOf(conditions);
    }
  }

  record Not(Condition condition) implements Condition {}

  static Condition readyPods(String workload, Comparison c, int n) {
    return new ReadyPods(workload, c, n);
  }

  static Condition nodeCount(LabelSelector s, Comparison c, int n) {
    return new NodeCount(s, c, n);
  }

  static Condition pendingPods(Comparison c, int n) {
    return new PendingPods(c, n);
  }
}
