/**
 * The AWS provider's interruption controller: spot interruption warnings and other instance
 * state changes turned into deletions and unavailable offerings. Receiving the message at the
 * right time is the simulator's job.
 */
package io.gpufleet.autoscaler.interruption;
