/**
 * How enums meet text: {@code WireEnum} derives an enum constant's API spelling from its name and
 * is the one lookup from text back to the constant. No enum of a domain lives here, and no parsing
 * beyond that exact lookup.
 */
package io.gpufleet.model.wire;
