/**
 * Karpenter's provisioning simulation: NodePools prepared as templates, instance-type options,
 * pods packed onto existing, in-flight and new NodeClaims, and the launch decision for each
 * planned claim, with Karpenter's messages for pods nothing can host. Pure over a {@code
 * ClusterView}; batching windows and timing live in the simulator.
 */
package io.gpufleet.autoscaler.provisioning;
