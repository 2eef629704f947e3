package io.gpufleet.engine.perf;

/**
 * What one tenant gets under open-loop load. Latencies run from arrival to completion; they are
 * infinite when the tenant's queue (or the device) cannot keep up.
 *
 * @param throughputPerSecond requests per second completed (the arrival rate when stable)
 * @param serviceMs           mean time a request takes once started, co-tenants included
 * @param utilisation         share of time this tenant has a request in service
 */
public record TenantForecast(
    String tenant, double ratePerSecond, double throughputPerSecond, double serviceMs, double meanMs,
    double p50Ms, double p99Ms, double utilisation, boolean stable) {

  /** The same forecast for another tenant that queues alike. */
  public TenantForecast withTenant(String name) {
    return new TenantForecast(name, ratePerSecond, throughputPerSecond, serviceMs, meanMs, p50Ms, p99Ms, utilisation,
        stable);
  }
}
