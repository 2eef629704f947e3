/**
 * Quota as Kueue's scheduler cache keeps it ({@code pkg/cache/scheduler/resource_node.go}): a tree
 * of cohorts over ClusterQueues, each node with its quota per flavor and resource, the subtree's
 * quota after lending limits, and usage; what a ClusterQueue can use now and at most, and each
 * node's dominant resource share ({@code fair_sharing.go}).
 */
package io.gpufleet.queue.quota;
