package io.gpufleet.model.pod;

import io.gpufleet.model.wire.WireEnum;

/** Whether a pod may preempt lower-priority pods. */
public enum PreemptionPolicy implements WireEnum {
  PREEMPT_LOWER_PRIORITY,
  NEVER
}
