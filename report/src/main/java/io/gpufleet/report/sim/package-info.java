/**
 * A simulation run's outputs: the terminal summary and step texts, kubectl-style tables of a
 * checkpoint, and the run's files ({@code result.json}, CSVs, {@code report.html}). Reads
 * results; never runs the simulator.
 */
package io.gpufleet.report.sim;
