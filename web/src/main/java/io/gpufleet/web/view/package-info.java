/**
 * The dashboard's view of a finished run, as plain maps and lists ready for JSON: the cluster at any
 * frame (node cards, physical GPUs with their sharing and pods), the run's timeline (steps, series,
 * lifecycle lanes, markers, events), what-if knobs applied to a scenario, and two runs compared.
 * No HTTP here: the server in {@code io.gpufleet.web.server} only routes to it.
 */
package io.gpufleet.web.view;
