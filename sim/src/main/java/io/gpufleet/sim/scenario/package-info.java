/**
 * A scenario as data: starting objects, catalogue, device plugin, settings, seed, and a timeline
 * of actions with conditions and node references. Reading scenario YAML is the {@code scenario}
 * module's job, not this package's.
 */
package io.gpufleet.sim.scenario;
