/**
 * The discrete-event kernel: sealed events, a queue ordered by time, priority and scheduling
 * sequence, the loop, and a virtual clock only the kernel moves. Nothing about Kubernetes beyond
 * the event kinds.
 */
package io.gpufleet.sim.kernel;
