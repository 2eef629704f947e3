package io.gpufleet.report.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.report.chart.Axis;
import io.gpufleet.report.chart.GanttChart;
import io.gpufleet.report.chart.SvgGanttChart;
import io.gpufleet.report.timeline.NodeLifecycle;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Issue 31: report.html handed colours out by first appearance, so blue meant "launched" in one
 * report and "initialized" in another. A lifecycle state now has one colour, shown in a legend.
 */
class LifecyclePaletteTest {

  private static String fillOf(String svg, String label) {
    Matcher m = Pattern.compile("<title>" + label + " \\([^<]*</title><rect [^>]*fill=\"(#[0-9a-f]{6})\"").matcher(svg);
    assertThat(m.find()).as(label).isTrue();
    return m.group(1);
  }

  private static String chart(List<String> order) {
    Map<String, String> colours = new java.util.LinkedHashMap<>();
    for (NodeLifecycle s : NodeLifecycle.values()) {
      colours.put(s.wire(), s.colour());
    }
    List<GanttChart.Bar> bars = new java.util.ArrayList<>();
    double t = 0;
    for (String state : order) {
      bars.add(new GanttChart.Bar(t, t + 10, state, state));
      t += 10;
    }
    return SvgGanttChart.render(new GanttChart("lanes", Axis.of("s", 0, t), List.of(new GanttChart.Lane("n", bars)),
        1000, colours));
  }

  @Test
  void aStateHasItsColourWhicheverStateComesFirst() {
    String a = chart(List.of("launched", "registered", "initialized"));
    String b = chart(List.of("initialized", "draining", "launched"));
    assertThat(fillOf(a, "initialized")).isEqualTo(fillOf(b, "initialized")).isEqualTo(NodeLifecycle.INITIALIZED.colour());
    assertThat(fillOf(a, "launched")).isEqualTo(fillOf(b, "launched")).isEqualTo(NodeLifecycle.LAUNCHED.colour());
    assertThat(fillOf(b, "draining")).isEqualTo(NodeLifecycle.DRAINING.colour());
  }

  @Test
  void theLegendNamesEveryStateBesideItsColour() {
    String legend = RunOutputs.lifecycleLegend();
    for (NodeLifecycle s : NodeLifecycle.values()) {
      assertThat(legend).contains("background:" + s.colour() + "\"></span>" + s.wire() + "</span>");
    }
  }
}
