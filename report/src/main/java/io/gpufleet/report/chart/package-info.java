/**
 * Chart values (line and Gantt) and their deterministic SVG rendering with axes, ticks and
 * legends. No data source of its own; callers fill the values.
 */
package io.gpufleet.report.chart;
