package io.gpufleet.sim.metrics;

import io.gpufleet.model.meta.ObjectRef;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * What a workload's users saw, as far as the run measured it.
 *
 * @param traffic its traffic model; {@link Traffic#NONE} when the workload declared none, so no
 *     request was counted
 * @param firstReady when its first pod became Ready; empty when none ever did
 * @param allReady when all the pods it wanted were first Ready at once; empty when never
 * @param mostReady the most pods Ready at once
 * @param minReady the fewest Ready pods once all it wanted had been Ready (so the start-up does not
 *     count); empty when they never were
 * @param outageSeconds seconds with no pod Ready after the first one was (0 when none ever was)
 * @param lostRequests requests lost to outages (at its request rate) and in flight on pods killed
 *     before they finished draining; empty when no traffic was modelled or it never served
 * @param podsKilled pods killed after they had been Ready
 */
public record ServiceMetrics(ObjectRef workload, Traffic traffic, Optional<Instant> firstReady,
    Optional<Instant> allReady, int mostReady, OptionalInt minReady, double outageSeconds,
    OptionalDouble lostRequests, int podsKilled) {

  public boolean trafficModelled() {
    return !traffic.equals(Traffic.NONE);
  }

  public boolean everReady() {
    return firstReady.isPresent();
  }

  /**
   * Whether users see its outages: a Deployment's or StatefulSet's pods serve; a DaemonSet's run one
   * per node, and a Job's run to completion, so a finished Job is not down.
   */
  public boolean service() {
    return !(workload.kind().equals("DaemonSet") || workload.kind().equals("Job"));
  }
}
