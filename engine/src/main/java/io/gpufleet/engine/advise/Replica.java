package io.gpufleet.engine.advise;

import io.gpufleet.model.advise.WorkloadProfile;

/** One tenant: replica {@code index} (from 1) of a workload. */
public record Replica(WorkloadProfile profile, int index) {

  public String name() {
    return profile.name() + "-" + index;
  }
}
