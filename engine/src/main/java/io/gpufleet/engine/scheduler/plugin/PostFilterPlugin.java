package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.FitError;
import io.gpufleet.engine.scheduler.PodInfo;
import java.util.List;
import java.util.Optional;

/**
 * The PostFilter extension point, run when no node passed the filters: where preemption plugs in.
 * It returns a message to append to the FitError ({@code preemption: ...}) and, when it found
 * victims, a node to nominate and the keys of the pods to evict there ({@link DefaultPreemption}).
 */
public interface PostFilterPlugin {

  String pluginName();

  Result postFilter(PodInfo pod, ClusterSnapshot snapshot, FitError error);

  record Result(Optional<String> nominatedNode, List<String> victims, String message) {}
}
