package io.gpufleet.report.chart;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.DoubleFunction;

/**
 * Bars on lanes over a shared time axis: which pod held which card, and when. {@code timeText} writes
 * a bar's ends in its hover text ({@code null}: the axis value with one decimal). Values only;
 * {@link SvgGanttChart} draws it.
 */
public record GanttChart(String title, Axis time, List<Lane> lanes, int width, Map<String, String> colours,
    DoubleFunction<String> timeText) {

  /** One row, e.g. {@code node-a GPU 0}. */
  public record Lane(String label, List<Bar> bars) {
    public Lane {
      Objects.requireNonNull(label, "label");
      bars = List.copyOf(bars);
    }
  }

  /** A span on a lane; bars with the same {@code group} share a colour. */
  public record Bar(double start, double end, String label, String group) {
    public Bar {
      if (!(end >= start)) {
        throw new IllegalArgumentException("a bar must not end before it starts: " + start + ".." + end);
      }
    }
  }

  /** Each group's colour from the palette, in order of first appearance. */
  public GanttChart(String title, Axis time, List<Lane> lanes, int width) {
    this(title, time, lanes, width, Map.of());
  }

  /** {@code colours}: a fixed colour for each group it names (the others from the palette). */
  public GanttChart(String title, Axis time, List<Lane> lanes, int width, Map<String, String> colours) {
    this(title, time, lanes, width, colours, null);
  }

  public GanttChart {
    colours = Map.copyOf(colours);
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(time, "time");
    lanes = List.copyOf(lanes);
    if (width < 300) {
      throw new IllegalArgumentException("a Gantt chart needs at least 300 pixels, got " + width);
    }
  }

  public GanttChart withTimeText(DoubleFunction<String> newTimeText) {
    return new GanttChart(title, time, lanes, width, colours, newTimeText);
  }

  public static GanttChart of(String title, Axis time, List<Lane> lanes) {
    return new GanttChart(title, time, lanes, LineChart.DEFAULT_WIDTH);
  }
}
