/**
 * The NodeClaim lifecycle, liveness, expiry and drift controllers: Registered and Initialized
 * marks, launch and registration deadlines, and which claims have expired or drifted. The
 * disruption of drifted claims is decided in {@code disruption}.
 */
package io.gpufleet.autoscaler.lifecycle;
