package io.gpufleet.web.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.report.browser.HeadlessChromium;
import io.gpufleet.scenario.ScenarioFile;
import io.gpufleet.scenario.ScenarioReader;
import io.gpufleet.scenario.ScenarioSources;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard on a fleet (issue 31 item 5): a generated day of eight services (over 100 nodes at
 * its mid-day peak, from {@code scripts/gen-week 8 1}) opens with an overview whose counts are the
 * moment's nodes and GPUs, draws one page of cards, and a filter, carried in the address, limits the
 * cards and the lifecycle lanes to the nodes it matches.
 */
class DashboardFleetBrowserTest {

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

  /** The moment the page shows, as the server's API gives it (not as the page drew it). */
  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> momentNodes(WebDriver d) {
    Object r = ((JavascriptExecutor) d).executeAsyncScript("""
        const done = arguments[arguments.length - 1];
        const p = new URLSearchParams(location.hash.slice(1));
        fetch('/api/runs/' + p.get('run') + '/cluster?frame=' + p.get('frame')).then(r => r.json())
          .then(v => done(v.nodes.map(n => ({ nodePool: n.nodePool, instanceType: n.instanceType,
            capacityType: n.capacityType, lifecycle: n.lifecycle, name: n.name,
            physical: n.gpus.length, allocated: n.gpuAllocated }))));""");
    return (List<Map<String, Object>>) r;
  }

  private static long cell(WebElement row, String cls) {
    return Long.parseLong(row.findElement(By.cssSelector("td." + cls)).getText());
  }

  @Test
  void overviewCountsTheMomentAndTheFilterInTheAddressLimitsCardsAndLanes() throws Exception {
    try (Dashboard dashboard = Dashboard.start(generatedDay(), "127.0.0.1", 0, Limits.DEFAULTS);
        HeadlessChromium chrome = HeadlessChromium.start()) {
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

      // Unfiltered: one page of cards, and Show more draws the next page.
      assertThat(cards(d)).isEqualTo(100);
      d.findElement(By.id("more")).click();
      waitFor(d).until(x -> cards(x) == Math.min(200, nodes.size()));

      // A node's name: its card alone, and its lane, in the address.
      String name = (String) nodes.get(nodes.size() / 2).get("name");
      WebElement box = d.findElement(By.id("node-filter"));
      box.sendKeys(name);
      waitFor(d).until(x -> cards(x) == 1);
      assertThat(d.findElement(By.cssSelector("#cards .node-card")).getDomAttribute("data-node")).isEqualTo(name);
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
      assertThat(cards(d)).isEqualTo((int) Math.min(100, inType));
      assertThat(d.findElements(By.cssSelector("#cards .node-card")))
          .allSatisfy(c -> assertThat(c.getText()).contains(instanceType));
      assertThat(chrome.consoleErrors()).isEmpty();
    }
  }
}
