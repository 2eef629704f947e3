package io.gpufleet.sim.state;

import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.workload.Workload;
import java.util.Objects;

/**
 * A workload and its controller's bookkeeping: completions and failures for Jobs.
 *
 * @param key the workload's kind, namespace and name
 */
public record WorkloadState(ObjectRef key, Workload workload, int succeeded, int failed) {

  public WorkloadState {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(workload, "workload");
  }

  public static ObjectRef keyOf(Workload w) {
    return ObjectRef.of(w.kind(), w.meta());
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
