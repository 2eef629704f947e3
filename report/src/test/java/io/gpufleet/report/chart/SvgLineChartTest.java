package io.gpufleet.report.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class SvgLineChartTest {

  private static LineChart sample() {
    return LineChart.of("Allocation <vs> demand", Axis.of("arrived (%)", 0, 130).withTicks(10, 0),
        Axis.of("allocated (%)", 0, 100).withTicks(20, 0), List.of(
            new Series("FGD", List.of(new Point(0, 0), new Point(50, 50), new Point(100, 95.4), new Point(130, 95.4))),
            new Series("Best & Fit", List.of(new Point(0, 0), new Point(60, Double.NaN), new Point(100, 93.1),
                new Point(130, 93.1)))));
  }

  @Test
  void matchesTheGoldenFile() throws IOException {
    String golden;
    try (InputStream in = getClass().getResourceAsStream("/golden/line-chart.svg")) {
      assertThat(in).as("golden file").isNotNull();
      golden = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(SvgLineChart.render(sample())).isEqualTo(golden);
  }

  @Test
  void theSameChartGivesTheSameBytesInAnyLocale() {
    String root = SvgLineChart.render(sample());
    Locale before = Locale.getDefault();
    try {
      Locale.setDefault(Locale.GERMANY);
      assertThat(SvgLineChart.render(sample())).isEqualTo(root);
    } finally {
      Locale.setDefault(before);
    }
    assertThat(root).doesNotContain(",5 ").contains("points=\"");
  }

  @Test
  void drawsTitleAxesLegendAndBreaksLinesAtGaps() {
    String svg = SvgLineChart.render(sample());
    assertThat(svg).startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\"").endsWith("</svg>\n");
    assertThat(svg).contains("Allocation &lt;vs&gt; demand", "arrived (%)", "allocated (%)", ">FGD<", ">Best &amp; Fit<");
    assertThat(svg).contains(">130<", ">100<");
    int polylines = svg.split("<polyline", -1).length - 1;
    assertThat(polylines).as("one line for FGD, two for the series with a gap").isEqualTo(3);
  }

  @Test
  void axesPickNiceTicksAndRejectEmptyRanges() {
    assertThat(Axis.of("x", 0, 130).ticks()).containsExactly(0.0, 20.0, 40.0, 60.0, 80.0, 100.0, 120.0);
    assertThat(Axis.of("y", 80, 100).ticks()).containsExactly(80.0, 85.0, 90.0, 95.0, 100.0);
    assertThat(Axis.of("y", 0, 1).withTicks(0.25, 2).ticks()).containsExactly(0.0, 0.25, 0.5, 0.75, 1.0);
    assertThatThrownBy(() -> Axis.of("x", 1, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Series("s", List.of(new Point(Double.NaN, 1)))).isInstanceOf(IllegalArgumentException.class);
  }
}
