package io.gpufleet.sim.state;

import io.gpufleet.model.workload.Workload;
import java.util.Objects;

/**
 * A workload and its controller's bookkeeping: completions and failures for Jobs.
 *
 * @param key {@code Kind/namespace/name}
 */
public record WorkloadState(String key, Workload workload, int succeeded, int failed) {

  public WorkloadState {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(workload, "workload");
  }

  public static String keyOf(Workload w) {
    return w.kind() + "/" + w.meta().namespace() + "/" + w.name();
  }

  public WorkloadState withWorkload(Workload w) {
    return new WorkloadState(key, w, succeeded, failed);
  }

  public WorkloadState withSucceeded(int s) {
    return new WorkloadState(key, workload, s, failed);
  }

  public WorkloadState withFailed(int f) {
    return new WorkloadState(key, workload, succeeded, f);
  }
}
