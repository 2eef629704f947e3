package io.gpufleet.engine.perf;

import java.util.Objects;

/**
 * One tenant on a device: what its request costs there alone, the GPU memory it holds, and its
 * open-loop load.
 *
 * @param memoryMiB     GPU memory the tenant allocates
 * @param ratePerSecond requests per second arriving at this tenant
 * @param arrivalScv    squared coefficient of variation of the gaps between them (1 = Poisson)
 */
public record Tenant(String name, ServiceDemand demand, long memoryMiB, double ratePerSecond, double arrivalScv) {

  public Tenant {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(demand, "demand");
    if (memoryMiB < 0 || !(ratePerSecond > 0) || !(arrivalScv > 0)) {
      throw new IllegalArgumentException(name + ": a tenant needs memory >= 0, a positive rate and arrival SCV");
    }
  }

  public double ratePerMs() {
    return ratePerSecond / 1000.0;
  }
}
