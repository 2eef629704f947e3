/**
 * Karpenter's disruption controller: candidates, budgets, the disruption methods (emptiness, drift,
 * multi- and single-node consolidation) and the command lifecycle (validate, execute). Decisions
 * over a {@code ClusterView} returned as actions; the provisioning simulation consolidation reuses
 * stays in {@code provisioning}.
 */
package io.gpufleet.autoscaler.disruption;
