/**
 * Kueue's topology-aware scheduling (TAS): the topology domains of a TAS ResourceFlavor's nodes,
 * their free capacity, and the placement of a pod set's pods on them
 * ({@code pkg/cache/scheduler/tas_flavor_snapshot.go}). TAS places pods on nodes that exist; it asks
 * no autoscaler for nodes (upstream does that only through a ProvisioningRequest admission check,
 * which the twin does not model).
 */
package io.gpufleet.queue.tas;
