/**
 * The GPU Operator's MIG manager and mig-parted as decisions: placing MIG instances on a GPU by
 * its placement rules, turning a named config into a node's layout, and the steps a config
 * change takes. The steps are data; carrying them out over time is the simulator's job.
 */
package io.gpufleet.engine.mig;
