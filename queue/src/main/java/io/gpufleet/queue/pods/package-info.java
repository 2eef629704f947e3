/**
 * Kueue's pod integration ({@code pkg/controller/jobs/pod/}): plain Pods labelled
 * {@code kueue.x-k8s.io/queue-name}, alone or in a pod group ({@code kueue.x-k8s.io/pod-group-name}
 * label, {@code kueue.x-k8s.io/pod-group-total-count} annotation), as one Workload each: the
 * webhook's checks of a group's metadata ({@code pod_webhook.go}), the group's Workload once all its
 * pods exist and its PodsReady ({@code pod_controller.go}). Pure functions of the pods they are given.
 */
package io.gpufleet.queue.pods;
