/**
 * Workload controllers as values (Deployment, ReplicaSet, StatefulSet, Job, DaemonSet), their
 * pod templates and PodDisruptionBudgets. Sealed so every consumer handles each kind; how many
 * pods each wants over time is decided in the simulator.
 */
package io.gpufleet.model.workload;
