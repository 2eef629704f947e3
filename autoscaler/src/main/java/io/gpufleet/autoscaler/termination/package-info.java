/**
 * Karpenter's termination controller: taint, drain through the Eviction API in two tiers
 * honouring PDBs and do-not-disrupt, and force at the grace deadline, as actions. Evicting and
 * deleting pods is the runtime's.
 */
package io.gpufleet.autoscaler.termination;
