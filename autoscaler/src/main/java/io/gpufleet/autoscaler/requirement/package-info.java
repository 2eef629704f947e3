/**
 * Karpenter's label requirements algebra: per-key value sets (In, NotIn, Exists, integer bounds)
 * and their intersection across pods, NodePools and instance types. No knowledge of nodes or
 * pods beyond their labels.
 */
package io.gpufleet.autoscaler.requirement;
