/**
 * Kueue's objects read from YAML (kueue.x-k8s.io v1beta1 and v1beta2: ResourceFlavor, ClusterQueue,
 * Cohort, Topology, LocalQueue, WorkloadPriorityClass) and batch/v1 Jobs labelled
 * {@code kueue.x-k8s.io/queue-name} turned into Workloads, with file:line:column errors.
 */
package io.gpufleet.manifest.kueue;
