package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.requirement.Requirements;
import io.gpufleet.engine.scheduler.ResourceVector;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.resource.ResourceList;

/**
 * An instance type as one NodePool would launch it: its requirements (labels, zones, capacity
 * types), what it leaves allocatable to pods (GPUs counted as the NodePool's sizing says), the
 * daemon pods that would land on it, its capacity for limits, and its cheapest offering's price.
 */
record TypeOption(InstanceType type, Requirements requirements, ResourceVector allocatable, long maxPods,
    ResourceVector overhead, int overheadPods, ResourceList capacity, double cheapestPrice) {

  /** Whether pods asking for {@code requests} ({@code pods} of them) fit beside the daemons. */
  boolean fits(ResourceVector requests, long pods) {
    return Fit.fits(requests, overhead, pods + overheadPods, allocatable, maxPods);
  }
}
