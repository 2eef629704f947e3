/**
 * GPU models and the physical cards of a node: the catalogue (read from the data file beside
 * it), compute capabilities, and MIG geometry, profiles, placements and layouts. Facts and
 * values only; placing MIG instances is {@code engine.mig}'s job.
 */
package io.gpufleet.model.gpu;
