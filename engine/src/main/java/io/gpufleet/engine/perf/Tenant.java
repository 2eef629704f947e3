package io.gpufleet.engine.perf;

import java.util.Objects;

/**
 * One tenant on a device: what its request costs there alone, and its open-loop load.
 *
 * @param ratePerSecond requests per second arriving at this tenant
 * @param arrivalScv    squared coefficient of variation of the gaps between them (1 = Poisson)
 */
public record Tenant(String name, ServiceDemand demand, double ratePerSecond, double arrivalScv) {

  public Tenant {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(demand, "demand");
    if (!(ratePerSecond > 0) || !(arrivalScv > 0)) {
      throw new IllegalArgumentException(name + ": a tenant needs a positive rate and arrival SCV");
    }
  }

  public double ratePerMs() {
    return ratePerSecond / 1000.0;
  }
}
