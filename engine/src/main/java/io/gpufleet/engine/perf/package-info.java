/**
 * The sharing performance model: what N tenants on one GPU (or one MIG slice) get under each way of
 * sharing it — throughput and latency percentiles under open-loop load, and the closed-loop
 * throughput the H200 measurement reports. Pure functions over values: no clock, no I/O, no
 * randomness, so the simulator can call them to put a latency on pods that share a card.
 *
 * <p>The shape of it: a request of a tenant costs host time {@code Z} (the GPU idles for this
 * tenant) and GPU time {@code D} when alone ({@link ServiceDemand}). Co-tenants stretch the GPU part
 * ({@link Contention}, one per sharing mode); each tenant then queues its own requests one at a
 * time ({@link TenantQueue}). {@link Calibration} holds the fitted constants with where each came
 * from.
 *
 * <p>Where a card's own closed-loop rows are at hand ({@link SharingCurves}, from a user's
 * {@code bench-sharing} file), replicas on that card queue on its measured capacity with k tenants
 * busy instead ({@link MeasuredQueueing}); {@link OpenLoopCheck} holds that against the card's
 * open-loop rows.
 */
package io.gpufleet.engine.perf;
