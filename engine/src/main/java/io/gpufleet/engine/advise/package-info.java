/**
 * {@code gpufleet advise}: which way of sharing a GPU to choose for a set of workloads, and why.
 * Every option (exclusive, time-slicing, MPS, MIG, and MIG instances time-sliced or MPS-shared) is
 * packed onto as few GPUs as its memory, stability and latency objective allow, costed on the
 * cheapest node type, and ranked; the rules of thumb of the sharing module, the risks of each mode
 * and the recommendation's defence are data the report renders.
 */
package io.gpufleet.engine.advise;
