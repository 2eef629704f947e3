package io.gpufleet.web.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.report.browser.HeadlessChromium;
import io.gpufleet.web.Lab;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard's charts in headless Chromium, read as a person reads them: the tooltip names each
 * series once under a run time, step labels do not overlap, equal lines stay visible, and a 0 s wait
 * is no spike.
 */
class DashboardChartsBrowserTest {

  private static Object js(WebDriver d, String script, Object... args) {
    return ((JavascriptExecutor) d).executeScript(script, args);
  }

  private static void open(WebDriver d, Dashboard dashboard) {
    open(d, dashboard, 1500);
  }

  private static void open(WebDriver d, Dashboard dashboard, int width) {
    d.manage().window().setSize(new Dimension(width, 2200));
    d.get("http://127.0.0.1:" + dashboard.port() + "/");
    new WebDriverWait(d, Duration.ofSeconds(20))
        .until(x -> "true".equals(x.findElement(By.tagName("body")).getDomAttribute("data-ready")));
  }

  private static Dashboard dashboard;
  private static HeadlessChromium chrome;
  private static WebDriver d;

  @BeforeAll
  static void start() {
    chrome = HeadlessChromium.start();
    dashboard = Dashboard.start(Lab.lab(), "127.0.0.1", 0, Limits.DEFAULTS);
    d = chrome.driver();
    open(d, dashboard);
  }

  @AfterAll
  static void stop() {
    if (chrome != null) {
      assertThat(chrome.consoleErrors()).isEmpty();
      chrome.close();
    }
    if (dashboard != null) {
      dashboard.close();
    }
  }

  @Test
  void tooltipHasARunTimeAndOneRowPerSeries() {
    // Tooltip over the GPU chart at the last frame: +HH:MM:SS, then each series exactly once.
    String tip = (String) js(d, """
        const c = echarts.getInstanceByDom(document.getElementById('chart-gpus'));
        const data = c.getOption().series[0].data;
        const x = data[data.length - 1][0];
        const [px, py] = c.convertToPixel({ gridIndex: 0 }, [x, 0]);
        c.dispatchAction({ type: 'showTip', x: px - 1, y: py - 10 });
        const tips = [...document.querySelectorAll('#chart-gpus div')].filter(e => e.innerText.includes('physical'));
        return tips.length ? tips[tips.length - 1].innerText : '';""");
    assertThat(tip.strip().lines().findFirst().orElse("")).matches("\\+\\d\\d:\\d\\d:\\d\\d");
    for (String name : List.of("physical", "advertised", "allocated", "idle")) {
      assertThat(tip.split(name + ":", -1)).as("rows for %s in %s", name, tip).hasSize(2);
    }
    assertThat(tip).doesNotContain(",").doesNotContain(".00");
  }

  @Test
  void stepLabelsDoNotOverlap() {
    // The lab's steps 3.2 and 3.3 are 30 s apart in a 14-minute run: at 1000 px they would touch.
    try {
      for (int width : new int[] {1500, 1000, 700}) {
        open(d, dashboard, width);
        labelsApart(width);
      }
    } finally {
      open(d, dashboard);
    }
  }

  private static void labelsApart(int width) {
    // Step labels: every shown marker label's box is clear of every other one.
    @SuppressWarnings("unchecked")
    List<List<Number>> boxes = (List<List<Number>>) js(d, """
        const names = new Set(state.run.markers.map(m => m.kind === 'Step' ? m.subject : m.kind));
        return [...document.querySelectorAll('#chart-gpus svg text')]
          .filter(t => names.has(t.textContent) || t.textContent === 'spot warning')
          .map(t => { const r = t.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; });""");
    assertThat(boxes).as("step labels drawn at %d px", width).hasSizeGreaterThanOrEqualTo(width >= 1000 ? 5 : 3);
    for (int i = 0; i < boxes.size(); i++) {
      for (int j = i + 1; j < boxes.size(); j++) {
        List<Number> a = boxes.get(i);
        List<Number> b = boxes.get(j);
        boolean apart = a.get(2).doubleValue() <= b.get(0).doubleValue() || b.get(2).doubleValue() <= a.get(0).doubleValue()
            || a.get(3).doubleValue() <= b.get(1).doubleValue() || b.get(3).doubleValue() <= a.get(1).doubleValue();
        assertThat(apart).as("at %d px label %s overlaps %s", width, a, b).isTrue();
      }
    }

  }

  @Test
  void equalLinesStayDistinguishable() {
    // Equal lines: each GPU series has its own dash pattern and symbol, narrower ones drawn above.
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> styles = (List<Map<String, Object>>) js(d, """
        return echarts.getInstanceByDom(document.getElementById('chart-gpus')).getOption().series
          .filter(s => s.id !== 'cursor')
          .map(s => ({ dash: JSON.stringify(s.lineStyle.type), width: s.lineStyle.width, symbol: s.symbol, z: s.z }));""");
    assertThat(styles).hasSize(4);
    assertThat(new HashSet<>(styles.stream().map(s -> s.get("dash")).toList())).hasSize(4);
    assertThat(new HashSet<>(styles.stream().map(s -> s.get("symbol")).toList())).hasSize(4);
    for (int i = 1; i < styles.size(); i++) {
      assertThat(((Number) styles.get(i).get("z")).intValue()).isGreaterThan(((Number) styles.get(i - 1).get("z")).intValue());
      assertThat(((Number) styles.get(i).get("width")).doubleValue())
          .isLessThan(((Number) styles.get(i - 1).get("width")).doubleValue());
    }
    // and the drawing has as many distinct dash patterns (the solid line has none).
    Number dashes = (Number) js(d, """
        return new Set([...document.querySelectorAll('#chart-gpus svg path[stroke-dasharray]')]
          .map(p => p.getAttribute('stroke-dasharray'))).size;""");
    assertThat(dashes.intValue()).isGreaterThanOrEqualTo(3);
  }

  @Test
  void zeroSecondWaitsDrawNoSpike() {
    // 0 s waits: the run has frames that share a time (pods bound in the instant they came); the
    // server sends one point per time, the last frame's of that instant (checked against the moment
    // the API gives for that frame), and the chart draws those points, so nothing spikes within an instant.
    @SuppressWarnings("unchecked")
    List<Boolean> check = (List<Boolean>) ((JavascriptExecutor) d).executeAsyncScript("""
        const done = arguments[arguments.length - 1];
        const t = state.run.frameSeconds;
        const raw = state.run.series.pendingPods;
        const shown = echarts.getInstanceByDom(document.getElementById('chart-pending')).getOption().series[0].data;
        const framesShared = t.some((x, i) => i > 0 && t[i - 1] === x);
        const increasing = raw.every((p, i) => i === 0 || raw[i - 1][0] < p[0]) && raw.length === new Set(t).size;
        const drawn = JSON.stringify(shown) === JSON.stringify(raw);
        const lastFrame = s => t.lastIndexOf(s);
        Promise.all(raw.map(p => fetch('/api/runs/' + state.run.id + '/cluster?limit=1&frame=' + lastFrame(p[0]))
            .then(r => r.json()).then(v => v.pendingCount === p[1])))
          .then(ok => done([framesShared, increasing, drawn, ok.every(x => x)]));""");
    assertThat(check).as("[frames share a time, one point per time, drawn as sent, the last frame's kept]")
        .containsExactly(true, true, true, true);
  }
}
