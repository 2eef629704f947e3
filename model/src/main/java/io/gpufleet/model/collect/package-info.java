/**
 * Persistent collections: values every change of which returns a new value sharing the untouched
 * parts, so the simulator's cluster images and the scheduler's snapshots derive cheaply from each other.
 */
package io.gpufleet.model.collect;
