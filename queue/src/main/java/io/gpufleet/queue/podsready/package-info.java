/**
 * Kueue's all-or-nothing admission ({@code waitForPodsReady}) as decisions: whether a Job's pods
 * are ready ({@code pkg/controller/jobs/job/job_controller.go} PodsReady), the Workload's PodsReady
 * condition ({@code pkg/controller/jobframework/reconciler.go}), the timeout after admission and the
 * eviction, requeue backoff and deactivation that follow it
 * ({@code pkg/controller/core/workload_controller.go}, {@code pkg/workload/workload.go},
 * {@code pkg/util/wait/backoff.go}). Pure functions of the state they are given and the clock's now.
 */
package io.gpufleet.queue.podsready;
