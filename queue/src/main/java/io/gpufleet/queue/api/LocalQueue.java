package io.gpufleet.queue.api;

/** A LocalQueue: the namespaced name a Job's {@code kueue.x-k8s.io/queue-name} label points at, and its ClusterQueue. */
public record LocalQueue(String namespace, String name, String clusterQueue) {}
