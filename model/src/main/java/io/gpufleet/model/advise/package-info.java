/**
 * What a workload asks of a GPU when it may share one: its memory footprint, what one request
 * costs, how fast requests arrive and how bursty they are, its latency objective, whether its
 * tenants trust each other, and how many replicas run. Values only; the performance model in
 * {@code io.gpufleet.engine.perf} turns them into latency and throughput.
 */
package io.gpufleet.model.advise;
