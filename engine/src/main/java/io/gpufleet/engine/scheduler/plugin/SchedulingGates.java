package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.model.pod.Pod;
import java.util.Optional;

/**
 * kube-scheduler's SchedulingGates plugin (pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go,
 * {@code PreEnqueue}): a pod with {@code spec.schedulingGates} stays out of the queue, Pending with the
 * PodScheduled condition's reason {@code SchedulingGated} (what {@code kubectl get pods} shows as its
 * STATUS), until every gate is removed.
 */
public enum SchedulingGates implements PreEnqueuePlugin {
  INSTANCE;

  /** The PodScheduled condition's reason for a gated pod ({@code v1.PodReasonSchedulingGated}). */
  public static final String REASON = "SchedulingGated";

  /**
   * The PodScheduled condition's message for a gated pod, which the API server writes at creation
   * (pkg/registry/core/pod/strategy.go, {@code applySchedulingGatedCondition}).
   */
  public static final String MESSAGE = "Scheduling is blocked due to non-empty scheduling gates";

  @Override
  public String pluginName() {
    return "SchedulingGates";
  }

  /** {@code waiting for scheduling gates: [a b]}, as upstream formats the gate names ({@code %v}). */
  @Override
  public Optional<String> preEnqueue(Pod pod) {
    var gates = pod.spec().schedulingGates();
    return gates.isEmpty() ? Optional.empty()
        : Optional.of("waiting for scheduling gates: [" + String.join(" ", gates) + "]");
  }
}
