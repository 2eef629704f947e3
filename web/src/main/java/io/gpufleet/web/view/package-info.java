/**
 * The dashboard's view of a finished run, as plain maps and lists ready for JSON: the cluster at any
 * frame (node cards, physical GPUs with their sharing and pods, a page at a time through the
 * Find-nodes filter), the run's timeline (steps, series, lifecycle lanes, markers, events), its GPU
 * allocation over time, what-if knobs applied to a scenario, and two runs compared.
 * No HTTP here: the server in {@code io.gpufleet.web.server} only routes to it.
 */
package io.gpufleet.web.view;
