/**
 * A pod's node affinity as the Kubernetes API writes it: required node-selector terms (ORed,
 * each ANDing label and field expressions) and weighted preferences. Values only; matching a
 * node against them belongs to the scheduler and to Karpenter's requirements, not here.
 */
package io.gpufleet.model.affinity;
