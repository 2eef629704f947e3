/**
 * Decodes Karpenter NodePools (with the CRD's patterns, CEL rules and defaults), node classes
 * and user instance catalogues. Validation and messages only; provisioning and disruption are
 * the autoscaler's.
 */
package io.gpufleet.manifest.karpenter;
