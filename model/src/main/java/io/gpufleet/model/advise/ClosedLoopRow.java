package io.gpufleet.model.advise;

import java.util.Objects;

/**
 * One closed-loop row of a sharing measurement: {@code tenants} processes of one workload on one
 * card under one mode, each sending requests back to back.
 *
 * @param workload   {@code big} or {@code small}
 * @param mode       {@code time-slicing}, {@code mps} (daemon defaults) or {@code mps-capped} (each of N
 *                   clients capped at 100/N % of the SMs, as the device plugin runs MPS)
 * @param throughput requests per second, all tenants together
 * @param p50Ms      median latency over all requests
 * @param p99Ms      99th percentile latency over all requests
 */
public record ClosedLoopRow(String workload, String mode, int tenants, double throughput, double p50Ms, double p99Ms) {

  public ClosedLoopRow {
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(mode, "mode");
    if (tenants < 1 || !(throughput > 0) || !(p50Ms > 0) || !(p99Ms >= p50Ms)) {
      throw new IllegalArgumentException("implausible measurement row " + workload + " " + mode + " N=" + tenants);
    }
  }
}
