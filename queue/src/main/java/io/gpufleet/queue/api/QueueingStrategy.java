package io.gpufleet.queue.api;

import io.gpufleet.model.wire.WireEnum;

/**
 * How a ClusterQueue orders its pending workloads ({@code spec.queueingStrategy}, default
 * BestEffortFIFO): StrictFIFO keeps an inadmissible head in front; BestEffortFIFO sets it aside
 * so newer workloads that fit may go first.
 */
public enum QueueingStrategy implements WireEnum {
  STRICT_FIFO,
  BEST_EFFORT_FIFO;

  /** Kueue writes the acronym in capitals, which the derived UpperCamelCase spelling would not. */
  @Override
  public String wireName() {
    return switch (this) {
      case STRICT_FIFO -> "StrictFIFO";
      case BEST_EFFORT_FIFO -> "BestEffortFIFO";
    };
  }

  @Override
  public String toString() {
    return wireName();
  }
}
