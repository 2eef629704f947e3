package io.gpufleet.report.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.report.Golden;
import java.util.List;
import org.junit.jupiter.api.Test;

class SvgGanttChartTest {

  private static GanttChart chart() {
    return GanttChart.of("Pods on cards", Axis.of("virtual time (minutes)", 0, 15), List.of(
        new GanttChart.Lane("node-a GPU 0", List.of(new GanttChart.Bar(1, 9, "web-1", "web"),
            new GanttChart.Bar(9.5, 20, "web-2 <late>", "web"))),
        new GanttChart.Lane("node-b GPU 1 (1g.10gb)", List.of(new GanttChart.Bar(-2, 4, "batch", "batch")))));
  }

  @Test
  void drawsTheSameBytesEveryTime() {
    String svg = SvgGanttChart.render(chart());
    assertThat(SvgGanttChart.render(chart())).isEqualTo(svg);
    Golden.check("gantt.svg", svg);
  }

  @Test
  void clipsBarsToTheAxisEscapesLabelsAndColoursByGroup() {
    String svg = SvgGanttChart.render(chart());
    assertThat(svg).contains("web-2 &lt;late&gt;").doesNotContain("<late>");
    // Two groups, two palette colours, in order of first appearance.
    assertThat(svg).contains("fill=\"" + SvgLineChart.PALETTE.get(0) + "\"").contains("fill=\""
        + SvgLineChart.PALETTE.get(1) + "\"");
    assertThat(svg).doesNotContain("x=\"-");
  }

  @Test
  void rejectsBarsThatEndBeforeTheyStart() {
    assertThatThrownBy(() -> new GanttChart.Bar(5, 4, "x", "g")).isInstanceOf(IllegalArgumentException.class);
  }
}
