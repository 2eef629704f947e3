/**
 * A run over time, one source for the HTML report and the dashboard: the cluster images a run
 * hands out (bounded), each node's lifecycle and its lane, the fleet's counts at a moment, and the
 * run-record entries drawn as markers.
 */
package io.gpufleet.report.timeline;
