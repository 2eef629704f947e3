/**
 * Kueue's admission decisions: flavor assignment in Kueue's order
 * ({@code pkg/scheduler/flavorassigner/flavorassigner.go}) and the scheduler's cycle over the
 * ClusterQueues' heads ({@code pkg/scheduler/scheduler.go}), in the classical order or, with fair
 * sharing, a tournament of shares; preemption, classical or fair; each outcome a value with Kueue's
 * conditions and messages.
 */
package io.gpufleet.queue.admission;
