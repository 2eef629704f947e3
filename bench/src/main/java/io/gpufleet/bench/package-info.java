/**
 * JMH benchmarks of the scheduler, Karpenter's provisioning, the openb replay and a month of a
 * simulated fleet, with the seeded inputs they run on. Measurement only; nothing in the product
 * depends on this module.
 */
package io.gpufleet.bench;
