/**
 * Karpenter's disruption controller: candidates and budgets, the disruption methods one per file
 * behind {@code DisruptionMethod} (emptiness, drift, multi- and single-node consolidation), the
 * rescheduling simulation they share, and the command lifecycle (validate, execute, abandon).
 * Decisions over a {@code ClusterView} returned as actions; expiry is the lifecycle package's, and
 * the provisioning simulation consolidation reuses stays in {@code provisioning}.
 */
package io.gpufleet.autoscaler.disruption;
