/**
 * What Karpenter decided, as data for the runtime to apply (launch, taint, evict, delete, ...),
 * and why a NodeClaim was removed. Nothing here carries an action out.
 */
package io.gpufleet.autoscaler.action;
