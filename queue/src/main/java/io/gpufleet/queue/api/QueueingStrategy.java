package io.gpufleet.queue.api;

/**
 * How a ClusterQueue orders its pending workloads ({@code spec.queueingStrategy}, default
 * BestEffortFIFO): StrictFIFO keeps an inadmissible head in front; BestEffortFIFO sets it aside
 * so newer workloads that fit may go first.
 */
public enum QueueingStrategy {
  STRICT_FIFO("StrictFIFO"),
  BEST_EFFORT_FIFO("BestEffortFIFO");

  private final String wire;

  QueueingStrategy(String wire) {
    this.wire = wire;
  }

  public String wire() {
    return wire;
  }

  @Override
  public String toString() {
    return wire;
  }
}
