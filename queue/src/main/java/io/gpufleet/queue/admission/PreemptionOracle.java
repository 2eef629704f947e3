package io.gpufleet.queue.admission;

import io.gpufleet.queue.api.Workload;
import io.gpufleet.queue.quota.FlavorResource;
import io.gpufleet.queue.quota.QuotaTree;

/**
 * Whether preempting could make room for {@code quantity} of a flavor-resource, and how much the
 * workload would still borrow afterwards ({@code preemptionOracle.SimulatePreemption}).
 */
public interface PreemptionOracle {

  Simulation simulate(QuotaTree tree, String clusterQueue, Workload workload, FlavorResource fr, long quantity);

  /** {@code preemptioncommon.PreemptionPossibility}. */
  enum Possibility { NO_CANDIDATES, PREEMPT, RECLAIM }

  record Simulation(Possibility possibility, int borrowAfterPreemption) {}

  /** Preemption not modelled: no workload is ever a candidate, so a request past available quota waits. */
  PreemptionOracle NO_CANDIDATES = (tree, cq, wl, fr, q) -> new Simulation(Possibility.NO_CANDIDATES, 0);
}
