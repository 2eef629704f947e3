package io.gpufleet.report.chart;

import java.util.List;
import java.util.Objects;
import java.util.function.DoubleFunction;

/**
 * A line chart: title, axes, series, its size in pixels, and how a hover names a point in x and y
 * ({@code null}: no hover). Values only; {@link SvgLineChart} draws it.
 */
public record LineChart(String title, Axis x, Axis y, List<Series> series, int width, int height, Hover hover) {

  /** How the hover text writes x (its header line) and each series' y. */
  public record Hover(DoubleFunction<String> x, DoubleFunction<String> y) {
    public Hover {
      Objects.requireNonNull(x, "x");
      Objects.requireNonNull(y, "y");
    }
  }

  public static final int DEFAULT_WIDTH = 720;
  public static final int DEFAULT_HEIGHT = 420;

  public LineChart {
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(x, "x");
    Objects.requireNonNull(y, "y");
    series = List.copyOf(series);
    if (width < 200 || height < 150) {
      throw new IllegalArgumentException("a chart needs at least 200 x 150 pixels, got " + width + " x " + height);
    }
  }

  public LineChart(String title, Axis x, Axis y, List<Series> series, int width, int height) {
    this(title, x, y, series, width, height, null);
  }

  public static LineChart of(String title, Axis x, Axis y, List<Series> series) {
    return new LineChart(title, x, y, series, DEFAULT_WIDTH, DEFAULT_HEIGHT);
  }

  public LineChart withSize(int newWidth, int newHeight) {
    return new LineChart(title, x, y, series, newWidth, newHeight, hover);
  }

  public LineChart withHover(Hover newHover) {
    return new LineChart(title, x, y, series, width, height, newHover);
  }
}
