/**
 * Dynamic Resource Allocation as kube-scheduler's DynamicResources plugin and the NVIDIA DRA
 * driver see it: device selection by CEL, claims instantiated from templates, allocation of
 * devices from node-local ResourceSlices (skipping devices whose taints a request does not
 * tolerate), the claims made for DRA-backed extended resources, the device taint eviction
 * controller's timing, and the slices and classes the driver publishes.
 */
package io.gpufleet.engine.dra;
