/**
 * The simulated cluster's immutable images (pods, nodes, NodeClaims, workloads and the
 * scheduler's view) on a persistent map, so that each change derives a new image cheaply. Values
 * only; the API server is the one that derives them.
 */
package io.gpufleet.sim.state;
