package io.gpufleet.report.chart;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** A named line: its points in x order; points with a NaN y break the line. */
public record Series(String name, List<Point> points) {

  public Series {
    Objects.requireNonNull(name, "name");
    points = List.copyOf(points);
    for (Point p : points) {
      if (!Double.isFinite(p.x())) {
        throw new IllegalArgumentException("series " + name + " has a point with x " + p.x());
      }
    }
  }

  /** A series over x = 0, 1, 2, ... from y values. */
  public static Series of(String name, double[] ys) {
    List<Point> points = new ArrayList<>(ys.length);
    for (int i = 0; i < ys.length; i++) {
      points.add(new Point(i, ys[i]));
    }
    return new Series(name, points);
  }
}
