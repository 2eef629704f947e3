/**
 * The rules every cluster image must keep (resources, taints, devices, PDB-respecting
 * evictions), checked after every event, and the violations found. Checks only; they never
 * change the image.
 */
package io.gpufleet.sim.invariant;
