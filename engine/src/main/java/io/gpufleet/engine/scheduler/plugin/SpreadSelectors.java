package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.pod.Pod;
import java.util.Optional;

/**
 * The selector kube-scheduler's {@code helper.DefaultSelector} finds for a pod: that of the
 * ReplicaSet or StatefulSet controlling it. Which controllers exist is the caller's knowledge, so
 * the caller supplies it; empty means the pod gets no default spreading.
 */
@FunctionalInterface
public interface SpreadSelectors {

  /** Knows no controllers: no pod is spread by the default constraints. */
  SpreadSelectors NONE = pod -> Optional.empty();

  Optional<LabelSelector> selectorFor(Pod pod);
}
