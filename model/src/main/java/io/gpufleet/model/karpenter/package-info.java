/**
 * Karpenter's API objects as values: NodePool (template, requirements, disruption settings and
 * budgets with their cron schedules), NodeClaim and its lifecycle times, Karpenter's labels and
 * taints. No decisions: those are the autoscaler's, and decoding from YAML is {@code
 * manifest.karpenter}'s.
 */
package io.gpufleet.model.karpenter;
