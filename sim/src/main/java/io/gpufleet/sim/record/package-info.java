/**
 * The run record: everything that happened in a run, in order, as the material reports are made
 * of.
 */
package io.gpufleet.sim.record;
