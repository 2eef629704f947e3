/**
 * Kueue's objects as values (kueue.x-k8s.io v1beta1 and v1beta2 read the same): ResourceFlavor,
 * ClusterQueue with its resource groups, Cohort, LocalQueue, their fair-sharing weights, the part
 * of Kueue's manager Configuration the twin acts on, and the Workload a Job becomes, with its
 * admission and its conditions in Kueue's words.
 */
package io.gpufleet.queue.api;
