package io.gpufleet.report.chart;

/** One point of a series; a NaN {@code y} leaves a gap in the line. */
public record Point(double x, double y) {}
