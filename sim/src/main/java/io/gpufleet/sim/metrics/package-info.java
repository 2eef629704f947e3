/**
 * A run's measurements: time series, costs, GPU-hours, pending times, card spans and what
 * services' users saw, collected as the simulator reports changes. Numbers only; rendering them
 * is the report module's job.
 */
package io.gpufleet.sim.metrics;
