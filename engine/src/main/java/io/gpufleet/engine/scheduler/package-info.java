/**
 * kube-scheduler's scheduling cycle for one pod (filter, score, select with seeded tie-breaks),
 * its profiles, the node and pod images it caches, and batch placement over an immutable cluster
 * snapshot. Stateless between calls apart from what the caller passes in; the queue and its
 * timing live in the simulator.
 */
package io.gpufleet.engine.scheduler;
