package io.gpufleet.model.pod;

/** Whether a pod may preempt lower-priority pods. */
public enum PreemptionPolicy {
  PREEMPT_LOWER_PRIORITY,
  NEVER
}
