package io.gpufleet.model.advise;

/**
 * The CPU and memory one replica requests from its node, so the advice can pick an instance type
 * whose allocatable holds the replicas it packs onto a node. Zero means "not given": then only GPUs
 * size the node.
 */
public record HostResources(long cpuMillis, long memoryMiB) {

  public static final HostResources NONE = new HostResources(0, 0);

  public HostResources {
    if (cpuMillis < 0 || memoryMiB < 0) {
      throw new IllegalArgumentException("host CPU and memory must not be negative");
    }
  }
}
