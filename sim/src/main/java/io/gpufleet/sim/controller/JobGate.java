package io.gpufleet.sim.controller;

import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.pod.Pod;

/** What may hold a Job's pods back before its controller makes them: Kueue's suspension. */
interface JobGate {

  /** No gate: every Job runs as created. */
  JobGate NONE = new JobGate() {
    @Override
    public boolean suspended(ObjectRef job) {
      return false;
    }

    @Override
    public void finished(ObjectRef job) {}
  };

  /** Whether the Job is suspended ({@code spec.suspend: true}): its controller makes no pods for it. */
  boolean suspended(ObjectRef job);

  /** The Job finished (its completions all came): what it held is released. */
  void finished(ObjectRef job);

  /** A pod its controller is about to create, as the gate lets it be scheduled (Kueue's topology ungater). */
  default Pod place(ObjectRef job, Pod pod) {
    return pod;
  }

  /**
   * Whether {@link #place} may change a pod of this workload, reading its siblings: where not, it gives
   * every pod back as it came.
   */
  default boolean places(ObjectRef job) {
    return false;
  }
}
