package io.gpufleet.web.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.cloud.InstanceLabels;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.report.browser.HeadlessChromium;
import io.gpufleet.report.sim.Durations;
import io.gpufleet.report.timeline.FleetCounts;
import io.gpufleet.web.view.Heatmap;
import io.gpufleet.web.view.PlayedRun;
import io.gpufleet.scenario.ScenarioFile;
import io.gpufleet.scenario.ScenarioReader;
import io.gpufleet.scenario.ScenarioSources;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard on a fleet (issue 31 item 5): a generated day of eight services (over 100 nodes at
 * its mid-day peak, from {@code scripts/gen-week 8 1}) opens with an overview whose counts are the
 * moment's nodes and GPUs, draws one page of cards, and a filter, carried in the address, limits the
 * cards and the lifecycle lanes to the nodes it matches; the server sends only the page drawn. Its
 * GPU-allocation heatmap groups the nodes by NodePool and instance type, and a cell's tooltip says
 * what the run's frames hold.
 */
class DashboardFleetBrowserTest {

  private static Dashboard dashboard;
  private static HeadlessChromium chrome;

  @BeforeAll
  static void start() throws Exception {
    dashboard = Dashboard.start(generatedDay(), "127.0.0.1", 0, Limits.DEFAULTS);
    chrome = HeadlessChromium.start();
  }

  @AfterAll
  static void stop() {
    if (chrome != null) {
      chrome.close();
    }
    if (dashboard != null) {
      dashboard.close();
    }
  }

  private static ScenarioFile generatedDay() throws IOException, InterruptedException {
    Path script = Path.of("..", "scripts", "gen-week").toAbsolutePath().normalize();
    Process p = new ProcessBuilder("bash", script.toString(), "8", "1").redirectErrorStream(true).start();
    String yaml = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(yaml).isZero();
    return ScenarioReader.read("week-8.yaml", yaml, ScenarioSources.directory(script.getParent()));
  }

  private static WebDriverWait waitFor(WebDriver d) {
    return new WebDriverWait(d, Duration.ofSeconds(60));
  }

  private static void open(WebDriver d, Dashboard dashboard, String hash) {
    d.get("about:blank");
    d.get("http://127.0.0.1:" + dashboard.port() + "/" + hash);
    waitFor(d).until(x -> "true".equals(x.findElement(By.tagName("body")).getDomAttribute("data-ready")));
  }

  private static int cards(WebDriver d) {
    return d.findElements(By.cssSelector("#cards .node-card")).size();
  }

  /** The moment the page shows, every card of it as the server's API pages them (not as the page drew it). */
  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> momentNodes(WebDriver d) {
    Object r = ((JavascriptExecutor) d).executeAsyncScript("""
        const done = arguments[arguments.length - 1];
        const p = new URLSearchParams(location.hash.slice(1));
        const all = [];
        const page = offset => fetch('/api/runs/' + p.get('run') + '/cluster?frame=' + p.get('frame')
            + '&limit=50&offset=' + offset).then(r => r.json()).then(v => {
          all.push(...v.nodes.map(n => ({ nodePool: n.nodePool, instanceType: n.instanceType,
            capacityType: n.capacityType, lifecycle: n.lifecycle, name: n.name,
            physical: n.gpus.length, allocated: n.gpuAllocated })));
          if (all.length < v.total && v.nodes.length > 0) return page(all.length);
          done(all);
        });
        page(0);""");
    return (List<Map<String, Object>>) r;
  }

  private static long cell(WebElement row, String cls) {
    return Long.parseLong(row.findElement(By.cssSelector("td." + cls)).getText());
  }

  @Test
  void overviewCountsTheMomentAndTheFilterInTheAddressLimitsCardsAndLanes() throws Exception {
    {
      WebDriver d = chrome.driver();
      d.manage().window().setSize(new Dimension(1500, 1200));
      // The busiest moment of the day: the most nodes.
      var run = dashboard.runs().getFirst();
      int busiest = 0;
      for (int f = 0; f < run.frames().size(); f++) {
        if (run.frames().get(f).state().nodes().size() > run.frames().get(busiest).state().nodes().size()) {
          busiest = f;
        }
      }
      open(d, dashboard, "#frame=" + busiest);
      List<Map<String, Object>> nodes = momentNodes(d);
      assertThat(nodes.size()).isGreaterThan(100); // a fleet, and more than one page of cards

      // The overview: for each dimension, each group's nodes and GPUs are the moment's.
      assertThat(d.findElement(By.id("overview")).isDisplayed()).isTrue();
      Map<String, String> fields = Map.of("pool", "nodePool", "type", "instanceType", "capacity", "capacityType",
          "state", "lifecycle");
      for (var dim : fields.entrySet()) {
        List<WebElement> rows = d.findElements(By.cssSelector("#overview table[data-dimension='" + dim.getKey()
            + "'] tr[data-group]"));
        assertThat(rows).isNotEmpty();
        long total = 0;
        for (WebElement row : rows) {
          String value = row.getDomAttribute("data-group").substring(dim.getKey().length() + 1);
          List<Map<String, Object>> group = nodes.stream()
              .filter(n -> value.equals(String.valueOf(n.get(dim.getValue())))).toList();
          assertThat(cell(row, "nodes")).as(dim + " " + value).isEqualTo(group.size());
          assertThat(cell(row, "physical")).isEqualTo(group.stream().mapToLong(n -> ((Number) n.get("physical")).longValue()).sum());
          assertThat(cell(row, "allocated")).isEqualTo(group.stream().mapToLong(n -> ((Number) n.get("allocated")).longValue()).sum());
          total += group.size();
        }
        assertThat(total).as(dim.getKey()).isEqualTo(nodes.size());
      }

      // Unfiltered: one page of cards, and only that page was sent.
      assertThat(cards(d)).isEqualTo(100);
      assertThat(((Number) ((JavascriptExecutor) d).executeScript("return state.view.nodes.length")).intValue())
          .isEqualTo(100);
      // Show more draws the next page.
      d.findElement(By.id("more")).click();
      waitFor(d).until(x -> cards(x) == Math.min(200, nodes.size()));

      // A node's name: its card alone, and its lane, in the address.
      String name = (String) nodes.get(nodes.size() / 2).get("name");
      WebElement box = d.findElement(By.id("node-filter"));
      box.sendKeys(name);
      waitFor(d).until(x -> cards(x) == 1);
      assertThat(d.findElement(By.cssSelector("#cards .node-card")).getDomAttribute("data-node")).isEqualTo(name);
      // The lanes come from the server after the cards: the node's is among them.
      waitFor(d).until(x -> x.findElements(By.cssSelector("#lanes .lane")).size() < nodes.size()
          && !x.findElements(By.cssSelector("#lanes .lane[data-lane='" + name + "']")).isEmpty());
      List<WebElement> lanes = d.findElements(By.cssSelector("#lanes .lane"));
      assertThat(lanes).extracting(l -> l.getDomAttribute("data-lane")).contains(name).hasSizeLessThan(run.frames().size());
      assertThat(lanes.size()).isLessThan(nodes.size());
      String hash = (String) ((JavascriptExecutor) d).executeScript("return location.hash");
      assertThat(hash).contains("filter=" + name);

      // The address alone brings the filtered view back.
      open(d, dashboard, hash);
      assertThat(d.findElement(By.id("node-filter")).getDomProperty("value")).isEqualTo(name);
      assertThat(cards(d)).isEqualTo(1);

      // An overview row filters to its group: every card shown is of that instance type.
      WebElement type = d.findElement(By.cssSelector("#overview table[data-dimension='type'] tr[data-group] button"));
      String instanceType = type.getText();
      long inType = nodes.stream().filter(n -> instanceType.equals(n.get("instanceType"))).count();
      type.click();
      waitFor(d).until(x -> ((String) ((JavascriptExecutor) x).executeScript("return location.hash"))
          .contains("filter=type%3A" + instanceType));
      // The cards come from the server after the address changes.
      waitFor(d).until(x -> cards(x) == (int) Math.min(100, inType));
      assertThat(d.findElements(By.cssSelector("#cards .node-card")))
          .allSatisfy(c -> assertThat(c.getText()).contains(instanceType));
      assertThat(chrome.consoleErrors()).isEmpty();
    }
  }

  /** As the server sends a share or an average: to a tenth. */
  private static double tenth(double v) {
    return Math.round(v * 10) / 10.0;
  }

  @Test
  @SuppressWarnings("unchecked")
  void theHeatmapGroupsTheFleetAndATooltipSaysWhatTheFramesHold() {
    WebDriver d = chrome.driver();
    d.manage().window().setSize(new Dimension(1500, 1200));
    open(d, dashboard, "#frame=0");
    JavascriptExecutor js = (JavascriptExecutor) d;
    waitFor(d).until(x -> js.executeScript("return !!(state.heatmap && state.heatmapChart)").equals(Boolean.TRUE));
    PlayedRun run = dashboard.runs().getFirst();
    // Over 60 nodes in the day: a row per NodePool and instance type, every one of them there.
    Map<String, Object> h = (Map<String, Object>) js.executeScript("return state.heatmap");
    assertThat(((Number) h.get("nodes")).intValue()).isGreaterThan(Heatmap.MAX_ROWS);
    assertThat(h.get("by")).isEqualTo("NodePool / instance type");
    Map<String, String> groupOf = new TreeMap<>();
    for (var f : run.frames()) {
      f.state().nodes().forEach((name, n) -> groupOf.put(name, n.node().labels().get(KarpenterLabels.NODEPOOL)
          .orElse("-") + " / " + n.node().labels().get(InstanceLabels.INSTANCE_TYPE).orElse("-")));
    }
    List<String> rows = ((List<Map<String, Object>>) h.get("rows")).stream().map(r -> (String) r.get("label")).toList();
    assertThat(rows).containsExactlyInAnyOrderElementsOf(new TreeSet<>(groupOf.values()));
    assertThat(d.findElement(By.id("heatmap-by")).getText()).startsWith("by NodePool / instance type");
    // The legend: the colour scale from 0% to 100% allocated.
    Map<String, Object> legend = (Map<String, Object>) js.executeScript(
        "const v = state.heatmapChart.getOption().visualMap[0]; return { min: v.min, max: v.max, text: v.text };");
    assertThat(((Number) legend.get("min")).intValue()).isZero();
    assertThat(((Number) legend.get("max")).intValue()).isEqualTo(100);
    assertThat((List<String>) legend.get("text")).containsExactly("100% of GPUs allocated", "0%");
    // The tooltip of the busiest cell short of full (so that allocated and advertised differ),
    // against the frames: GPU-seconds the group's pods hold over those its nodes advertise, within
    // the column.
    List<List<Number>> cells = (List<List<Number>>) h.get("cells");
    int index = -1;
    for (int i = 0; i < cells.size(); i++) {
      double percent = cells.get(i).get(2).doubleValue();
      if (percent > 0 && percent < 99 && (index < 0
          || cells.get(i).get(3).doubleValue() > cells.get(index).get(3).doubleValue())) {
        index = i;
      }
    }
    assertThat(index).as("a cell partly allocated").isNotNegative();
    List<Number> cell = cells.get(index);
    long width = ((Number) h.get("columnSeconds")).longValue();
    long end = run.result().simulated().getSeconds();
    long from = cell.get(0).longValue() * width;
    long to = Math.min(end, from + width);
    String group = rows.get(cell.get(1).intValue());
    double advertised = 0;
    double allocated = 0;
    for (int i = 0; i < run.frames().size(); i++) {
      var f = run.frames().get(i);
      long a = Math.max(from, Duration.between(run.result().start(), f.time()).getSeconds());
      long b = Math.min(to, i + 1 < run.frames().size()
          ? Duration.between(run.result().start(), run.frames().get(i + 1).time()).getSeconds() : end);
      if (b <= a) {
        continue;
      }
      for (var n : f.state().nodes().values()) {
        if (group.equals(groupOf.get(n.name()))) {
          advertised += FleetCounts.gpus(n.node().allocatable()) * (double) (b - a);
        }
      }
      for (var p : f.state().pods().values()) {
        if (p.node().isPresent() && group.equals(groupOf.get(p.node().get()))) {
          allocated += FleetCounts.gpuRequest(p) * (double) (b - a);
        }
      }
    }
    assertThat(allocated).isPositive();
    String want = String.format(Locale.ROOT, "%s, %s to %s: %.1f%% of GPU time allocated (on average %.1f of %.1f GPUs)",
        group, Durations.offset(run.result().start(), run.result().start().plusSeconds(from)),
        Durations.offset(run.result().start(), run.result().start().plusSeconds(to)), tenth(100 * allocated / advertised),
        tenth(allocated / (to - from)), tenth(advertised / (to - from)));
    // The mouse over the cell shows it; a click filters to the group and moves to the column's start.
    WebElement heatmap = d.findElement(By.id("heatmap"));
    js.executeScript("arguments[0].scrollIntoView({ block: 'center' })", heatmap);
    List<Number> px = (List<Number>) js.executeScript(
        "return state.heatmapChart.convertToPixel({ seriesIndex: 0 }, [arguments[0], arguments[1]])",
        cell.get(0).intValue(), cell.get(1).intValue());
    int dx = (int) Math.round(px.get(0).doubleValue() - heatmap.getRect().getWidth() / 2.0);
    int dy = (int) Math.round(px.get(1).doubleValue() - heatmap.getRect().getHeight() / 2.0);
    new Actions(d).moveToElement(heatmap, dx, dy).perform();
    waitFor(d).until(x -> ((String) js.executeScript("return document.getElementById('heatmap').innerText")).contains(want));
    new Actions(d).moveToElement(heatmap, dx, dy).click().perform();
    String filter = (String) ((List<Map<String, Object>>) h.get("rows")).get(cell.get(1).intValue()).get("filter");
    assertThat(filter).isEqualTo("pool:" + group.replace(" / ", " type:"));
    waitFor(d).until(x -> ((String) js.executeScript("return location.hash"))
        .contains("frame=" + run.frameAt(from) + "&"));
    assertThat(d.findElement(By.id("node-filter")).getDomProperty("value")).isEqualTo(filter);
    String[] poolAndType = group.split(" / ");
    waitFor(d).until(x -> !x.findElements(By.cssSelector("#cards .node-card")).isEmpty()
        && x.findElements(By.cssSelector("#cards .node-card")).stream().allMatch(c -> poolAndType[0].equals(
            c.getDomAttribute("data-nodepool")) && c.getText().contains(poolAndType[1])));
    assertThat(chrome.consoleErrors()).isEmpty();
  }
}
