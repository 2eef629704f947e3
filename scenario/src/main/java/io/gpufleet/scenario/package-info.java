/**
 * Reads a {@code gpufleet.io/v1alpha1 Scenario} file (cluster manifests, device plugin,
 * settings, steps) into the simulator's scenario, resolving referenced files beside it or on the
 * classpath for the built-in lab. No simulation and no rendering here.
 */
package io.gpufleet.scenario;
