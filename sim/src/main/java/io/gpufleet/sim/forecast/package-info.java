/**
 * When will a job run: the cluster as it is, the job added, played forward under several seeds, and
 * for each run when the job's pods were all running and all done, where, at what cost, and what its
 * waiting pods were told ({@code gpufleet when}).
 */
package io.gpufleet.sim.forecast;
