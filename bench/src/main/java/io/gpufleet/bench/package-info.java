/**
 * JMH benchmarks of the scheduler, Karpenter's provisioning, the openb replay and a month of a
 * simulated fleet, with the seeded inputs they run on; and plain harnesses of how costs grow with a
 * fleet (EventCost per simulation event, InputScaling for reading and linting a cluster dump).
 * Measurement only; nothing in the product depends on this module.
 */
package io.gpufleet.bench;
