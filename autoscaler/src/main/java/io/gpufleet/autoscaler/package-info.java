/**
 * Karpenter as pure decisions: the {@code Karpenter} facade the simulator calls and the operator
 * settings it runs with. It reads no clock and changes nothing; each decision lives in a sub-
 * package and comes back as actions.
 */
package io.gpufleet.autoscaler;
