/**
 * {@code gpufleet bench-sharing}: N tenant processes (separate JVMs, as pods are) share one GPU
 * under time-slicing, MPS, or MPS with each client capped at 100/N % of the SMs as the device plugin
 * runs it, closed loop or Poisson open loop; their latencies are gathered into rows of aggregate
 * throughput and p50/p99 that the performance model's calibration reads.
 */
package io.gpufleet.nvml.bench;
