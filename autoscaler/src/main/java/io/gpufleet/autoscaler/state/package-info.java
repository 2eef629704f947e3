/**
 * What Karpenter sees of the cluster at one instant ({@code ClusterView}): state nodes, PDBs
 * with their remaining disruptions, offerings out of stock. Immutable snapshots built by the
 * runtime; Karpenter never mutates them.
 */
package io.gpufleet.autoscaler.state;
