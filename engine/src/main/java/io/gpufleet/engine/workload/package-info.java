/**
 * The pods workload controllers create: names as the controllers make them (suffixes from the
 * caller's seeded generator), labels and owners from the template, and the initial pods of a set
 * of workloads on fixed nodes. Reconciling over time is the simulator's job.
 */
package io.gpufleet.engine.workload;
