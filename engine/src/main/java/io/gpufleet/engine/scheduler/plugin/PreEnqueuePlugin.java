package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.model.pod.Pod;
import java.util.Optional;

/**
 * A PreEnqueue extension point: may this pod enter the scheduling queue at all? A pod a plugin holds
 * back is never tried, so it gets no FailedScheduling event and is never bound; it waits until what
 * holds it changes (kube-scheduler's {@code PreEnqueuePlugin}).
 */
public interface PreEnqueuePlugin {

  /** The plugin's name as in a KubeSchedulerConfiguration. */
  String pluginName();

  /** Why the pod may not be queued, as the plugin's status message; empty when it may. */
  Optional<String> preEnqueue(Pod pod);
}
