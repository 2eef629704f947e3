package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.requirement.Requirements;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.ResourceList;
import java.util.List;

/**
 * A NodeClaim the provisioner decided it needs: its NodePool, the pods it was planned for, the
 * requirements those pods and the NodePool leave, and the instance types still able to host them
 * all, cheapest first.
 *
 * @param requests what the planned pods ask for together (without daemons)
 * @param draDrivers under Karpenter's DRA allocator, the drivers whose devices it gave the pods, sorted
 */
public record PlannedClaim(NodePoolTemplate template, List<Pod> pods, Requirements requirements,
    List<InstanceType> instanceTypes, ResourceList requests, List<String> draDrivers) {

  public PlannedClaim {
    pods = List.copyOf(pods);
    instanceTypes = List.copyOf(instanceTypes);
    draDrivers = List.copyOf(draDrivers);
  }

  /** A claim no DRA device was allocated for. */
  public PlannedClaim(NodePoolTemplate template, List<Pod> pods, Requirements requirements,
      List<InstanceType> instanceTypes, ResourceList requests) {
    this(template, pods, requirements, instanceTypes, requests, List.of());
  }

  public PlannedClaim withDraDrivers(List<String> drivers) {
    return new PlannedClaim(template, pods, requirements, instanceTypes, requests, drivers);
  }

  public String nodePool() {
    return template.name();
  }
}
