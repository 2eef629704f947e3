/**
 * A pod and its spec: containers (sidecars included), the parts of the spec that decide
 * placement, and its effective request as kube-scheduler computes it. Where a pod runs and its
 * phase are cluster state, not part of these values.
 */
package io.gpufleet.model.pod;
