/**
 * A Node as the scheduler sees it: labels, taints, cordon, capacity and allocatable. Its GPUs
 * and device state are derived elsewhere ({@code engine.deviceplugin}); runtime status belongs
 * to the simulator.
 */
package io.gpufleet.model.node;
