package io.gpufleet.engine.scheduler.plugin;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Status;
import java.util.Set;

/**
 * The PreFilter extension point: once per pod, before any node is filtered, a plugin may narrow the
 * nodes worth filtering to a set of names, or reject the pod outright.
 */
public interface PreFilterPlugin {

  String pluginName();

  Result preFilter(PodInfo pod);

  /** PreFilter over the cycle's snapshot, for a plugin whose decision reads what the bound pods hold. */
  default Result preFilter(PodInfo pod, ClusterSnapshot snapshot) {
    return preFilter(pod);
  }

  /** What PreFilter decided. */
  sealed interface Result {
    /** Every node is a candidate (upstream's nil PreFilterResult). */
    record AllNodes() implements Result {}

    /** Only these nodes are candidates; the others fail as "didn't satisfy plugin(s)". */
    record NodeNames(Set<String> names) implements Result {
      public NodeNames {
        names = Set.copyOf(names);
      }
    }

    /** No node can take the pod; the status goes to every node and its message leads the FitError. */
    record Rejected(Status status) implements Result {}

    Result ALL = new AllNodes();
  }
}
