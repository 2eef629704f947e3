/**
 * The GPU Operator's MIG manager and mig-parted as decisions: placing MIG instances on a GPU by
 * its placement rules, turning a named config (stock or from a custom mig-parted ConfigMap) into
 * a node's layout, and the steps a config change takes. {@code MigManager} is the one manager the
 * commands and the simulator share. The steps are data; carrying them out over time is the simulator's job.
 */
package io.gpufleet.engine.mig;
