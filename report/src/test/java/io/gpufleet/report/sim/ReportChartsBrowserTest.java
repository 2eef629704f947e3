package io.gpufleet.report.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.report.browser.HeadlessChromium;
import io.gpufleet.report.chart.Axis;
import io.gpufleet.report.chart.GanttChart;
import io.gpufleet.report.chart.LineChart;
import io.gpufleet.report.chart.Point;
import io.gpufleet.report.chart.Series;
import io.gpufleet.report.chart.SvgGanttChart;
import io.gpufleet.report.chart.SvgLineChart;
import io.gpufleet.sim.metrics.TimeSeries;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;

/**
 * report.html's run charts in headless Chromium: a hover names the run time and each series once,
 * equal lines both stay visible, and a 0 s wait draws no spike.
 */
class ReportChartsBrowserTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final RunOutputs.TimeUnit MINUTES = new RunOutputs.TimeUnit("minutes", 60);

  /** A GPU chart as the report draws it: "advertised" equals "allocated" all along. */
  static LineChart equalLines() {
    TimeSeries fleet = new TimeSeries("fleet", List.of(new TimeSeries.Sample(T0, 4),
        new TimeSeries.Sample(T0.plusSeconds(600), 8)));
    TimeSeries used = new TimeSeries("used", List.of(new TimeSeries.Sample(T0, 2),
        new TimeSeries.Sample(T0.plusSeconds(1200), 6)));
    Instant end = T0.plusSeconds(3600);
    List<Series> series = List.of(new Series("GPUs in the fleet", RunOutputs.steps(fleet, T0, end, MINUTES, 1)),
        new Series("GPUs advertised", RunOutputs.steps(used, T0, end, MINUTES, 1)),
        new Series("GPUs allocated", RunOutputs.steps(used, T0, end, MINUTES, 1)));
    LineChart chart = LineChart.of("GPUs", Axis.of("virtual time (minutes)", 0, 60), Axis.of("GPUs", 0, 10), series);
    return RunOutputs.hover(chart, MINUTES, v -> Long.toString(Math.round(v)));
  }

  @Test
  void hoverNamesTheRunTimeAndEachSeriesOnceAndEqualLinesStayVisible(@TempDir Path dir) throws IOException {
    Path page = dir.resolve("report.html");
    Files.writeString(page, "<!doctype html><html><body style='margin:0'><figure style='margin:0'>"
        + SvgLineChart.render(equalLines()) + "</figure></body></html>");
    try (HeadlessChromium chrome = HeadlessChromium.start()) {
      WebDriver d = chrome.driver();
      assertThat(chrome.open(page)).isEmpty();
      JavascriptExecutor js = (JavascriptExecutor) d;
      // What a pointer at +00:30:00 (halfway along the plot) hovers: its title is the tooltip.
      String tip = (String) js.executeScript("""
          const svg = document.querySelector('svg'), r = svg.getBoundingClientRect();
          const plot = svg.querySelector('rect[stroke]').getBoundingClientRect();
          const e = document.elementFromPoint(plot.left + plot.width / 2, plot.top + plot.height / 2);
          const t = e && e.querySelector('title');
          return t ? t.textContent : (e ? e.outerHTML : 'nothing');""");
      List<String> lines = tip.lines().toList();
      assertThat(lines.getFirst()).isEqualTo("+00:20:00");
      assertThat(lines.subList(1, lines.size()))
          .containsExactly("GPUs in the fleet: 8", "GPUs advertised: 6", "GPUs allocated: 6");

      // The equal lines: different dash patterns, the later one narrower and drawn above.
      @SuppressWarnings("unchecked")
      List<Map<String, Object>> lines2 = (List<Map<String, Object>>) js.executeScript("""
          return [...document.querySelectorAll('polyline')].map(p => ({ points: p.getAttribute('points'),
            dash: getComputedStyle(p).strokeDasharray, width: parseFloat(getComputedStyle(p).strokeWidth) }));""");
      assertThat(lines2).hasSize(3);
      assertThat(lines2.get(1).get("points")).isEqualTo(lines2.get(2).get("points"));
      assertThat(lines2.get(1).get("dash")).isNotEqualTo(lines2.get(2).get("dash"));
      assertThat(new HashSet<>(lines2.stream().map(l -> l.get("dash")).toList())).hasSize(3);
      assertThat(((Number) lines2.get(2).get("width")).doubleValue())
          .isLessThan(((Number) lines2.get(1).get("width")).doubleValue());
      // The legend draws each series' own dash, so the reader can tell which is which.
      Number legendDashes = (Number) js.executeScript("""
          return new Set([...document.querySelectorAll('svg > g:last-of-type line, svg line[stroke-dasharray]')]
            .map(l => getComputedStyle(l).strokeDasharray)).size;""");
      assertThat(legendDashes.intValue()).isGreaterThanOrEqualTo(3);
    }
  }

  @Test
  void ganttBarsNameTheirRunTimes() {
    GanttChart lanes = new GanttChart("lanes", Axis.of("virtual time (minutes)", 0, 60),
        List.of(new GanttChart.Lane("node-a", List.of(new GanttChart.Bar(5, 6.5, "Launched", "Launched")))), 600)
        .withTimeText(RunOutputs.runTime(MINUTES));
    assertThat(SvgGanttChart.render(lanes)).contains("<title>Launched (+00:05:00 to +00:06:30)</title>");
  }

  @Test
  void aZeroSecondWaitIsNoSpike() {
    // One pod created and bound at +00:05:00 (0 s wait), another pending from +00:10:00 to +00:12:00.
    TimeSeries pending = new TimeSeries("pending", List.of(new TimeSeries.Sample(T0, 0),
        new TimeSeries.Sample(T0.plusSeconds(300), 1), new TimeSeries.Sample(T0.plusSeconds(300), 0),
        new TimeSeries.Sample(T0.plusSeconds(600), 1), new TimeSeries.Sample(T0.plusSeconds(720), 0)));
    List<Point> points = RunOutputs.steps(pending, T0, T0.plusSeconds(900), MINUTES, 1);
    assertThat(points.stream().filter(p -> p.x() <= 5).mapToDouble(Point::y).max().orElseThrow()).isZero();
    assertThat(points.stream().filter(p -> p.x() >= 10 && p.x() < 12).mapToDouble(Point::y)).contains(1.0);
    assertThat(points.getLast()).isEqualTo(new Point(15, 0));
  }
}
