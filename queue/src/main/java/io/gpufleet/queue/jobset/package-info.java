/**
 * Kueue's JobSet integration ({@code pkg/controller/jobs/jobset/jobset_controller.go}): a JobSet
 * ({@code jobset.x-k8s.io/v1alpha2}) labelled {@code kueue.x-k8s.io/queue-name} is one Workload whose pod
 * sets are its replicated jobs, PodsReady when all its Jobs are. Pure functions of the JobSet and its
 * Jobs' status.
 */
package io.gpufleet.queue.jobset;
