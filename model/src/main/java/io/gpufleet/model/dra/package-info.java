/**
 * Dynamic Resource Allocation ({@code resource.k8s.io/v1}) as values: device classes, claims and
 * their templates, the ResourceSlices a driver publishes, device taints and the DeviceTaintRules
 * that add them, requests' tolerations, and what a pod asks for by name. The
 * allocation itself is a scheduling decision and lives in the engine.
 */
package io.gpufleet.model.dra;
