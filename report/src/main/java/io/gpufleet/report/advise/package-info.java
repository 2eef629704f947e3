/**
 * Renders the sharing advice and the performance model's calibration as text tables, JSON and a
 * self-contained HTML page. Computes nothing: every number comes from the engine's advice.
 */
package io.gpufleet.report.advise;
