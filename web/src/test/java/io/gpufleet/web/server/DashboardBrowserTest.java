package io.gpufleet.web.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.report.browser.HeadlessChromium;
import io.gpufleet.web.Lab;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in Debian's headless Chromium, used as a person would: step through the lab and
 * read the cards; turn a knob and read the comparison. Screenshots go to target/screenshots.
 */
class DashboardBrowserTest {

  static final Path SHOTS = Path.of("target", "screenshots");
  static final String LAB_NODE = "ip-10-0-1-17.ec2.internal";

  private static WebDriverWait waitFor(WebDriver d) {
    return new WebDriverWait(d, Duration.ofSeconds(20));
  }

  private static void open(WebDriver d, Dashboard dashboard) {
    d.manage().window().setSize(new Dimension(1500, 2200));
    d.get("http://127.0.0.1:" + dashboard.port() + "/");
    waitFor(d).until(x -> "true".equals(x.findElement(By.tagName("body")).getDomAttribute("data-ready")));
  }

  /**
   * Shows the end of a step: its button goes to the step's start, then its last frame comes by
   * address (the view is in the page's address), and the page waits until it shows that frame.
   */
  private static void step(WebDriver d, Dashboard dashboard, String id) {
    WebElement button = d.findElement(By.cssSelector(".step-button[data-step='" + id + "']"));
    button.click();
    waitFor(d).until(x -> x.findElement(By.cssSelector(".step-button[data-step='" + id + "']"))
        .getDomAttribute("class").contains("active"));
    int end = dashboard.runs().getFirst().steps().stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow()
        .endFrame();
    d.get("http://127.0.0.1:" + dashboard.port() + "/#run=0&frame=" + end);
    waitFor(d).until(x -> Integer.toString(end).equals(x.findElement(By.tagName("body")).getDomAttribute("data-frame")));
  }

  private static WebElement labCard(WebDriver d) {
    return d.findElement(By.cssSelector(".node-card[data-node='" + LAB_NODE + "']"));
  }

  static void screenshot(WebDriver d, String name) throws IOException {
    Files.createDirectories(SHOTS);
    byte[] png = ((org.openqa.selenium.TakesScreenshot) d).getScreenshotAs(OutputType.BYTES);
    Files.write(SHOTS.resolve(name + ".png"), png);
  }

  @Test
  void stepsThroughTheLabAndSeesWhatEachStepShows() throws IOException {
    try (Dashboard dashboard = Dashboard.start(Lab.lab(), "127.0.0.1", 0, Limits.DEFAULTS);
        HeadlessChromium chrome = HeadlessChromium.start()) {
      WebDriver d = chrome.driver();
      open(d, dashboard);
      assertThat(d.findElements(By.cssSelector(".step-button"))).extracting(e -> e.getDomAttribute("data-step"))
          .containsExactly("3.1", "3.2", "3.3", "3.4", "3.5");
      // Every frame kept: no thinning to report.
      assertThat(dashboard.runs().getFirst().thinned()).isFalse();
      assertThat(d.findElement(By.id("thinned")).isDisplayed()).isFalse();

      // Play at 600x: the frames advance by themselves; pause stops them.
      new Select(d.findElement(By.id("speed"))).selectByValue("600");
      d.findElement(By.id("play")).click();
      waitFor(d).until(x -> Integer.parseInt(x.findElement(By.tagName("body")).getDomAttribute("data-frame")) > 2);
      d.findElement(By.id("pause")).click();
      assertThat(d.findElement(By.id("play")).isEnabled()).isTrue();

      // Jump to 0:06:10: the last frame by then, as the server finds it.
      int expected = dashboard.runs().getFirst().frameAt(370);
      d.findElement(By.id("jump-time")).sendKeys("0:06:10");
      d.findElement(By.id("jump")).click();
      waitFor(d).until(x -> Integer.toString(expected).equals(
          x.findElement(By.tagName("body")).getDomAttribute("data-frame")));
      // Run time as every output writes it: +HH:MM:SS.
      assertThat(d.findElement(By.id("clock")).getText()).matches("\\+00:0[0-6]:\\d\\d +\\(frame \\d+ of \\d+\\)");

      step(d, dashboard, "3.3");
      List<WebElement> chips = labCard(d).findElements(By.cssSelector(".gpu[data-index='0'] .pod-chip"));
      assertThat(chips).hasSize(4).allSatisfy(c -> assertThat(c.getText()).startsWith("vllm-sliced"));
      assertThat(labCard(d).findElement(By.cssSelector(".advertised")).getText()).isEqualTo("4");
      assertThat(d.findElements(By.cssSelector(".node-card"))).hasSize(1);
      screenshot(d, "lab-3.3-four-pods-one-gpu");

      step(d, dashboard, "3.4");
      List<WebElement> pool = d.findElements(By.cssSelector(".node-card[data-nodepool='gpu']"));
      assertThat(pool).hasSize(2);
      WebElement second = pool.stream().filter(c -> !LAB_NODE.equals(c.getDomAttribute("data-node"))).findFirst()
          .orElseThrow();
      assertThat(second.findElements(By.cssSelector(".pod-chip"))).extracting(WebElement::getText)
          .containsExactly("vllm-fifth");
      assertThat(d.findElements(By.cssSelector(".lane"))).hasSize(2);
      screenshot(d, "lab-3.4-second-node");

      step(d, dashboard, "3.5");
      assertThat(labCard(d).findElement(By.cssSelector(".advertised")).getText()).isEqualTo("1");
      screenshot(d, "lab-3.5-reset");

      // Step back one event at a time: the frame counter moves, the page keeps up.
      String before = d.findElement(By.tagName("body")).getDomAttribute("data-frame");
      d.findElement(By.id("prev")).click();
      waitFor(d).until(x -> !before.equals(x.findElement(By.tagName("body")).getDomAttribute("data-frame")));
      assertThat(Integer.parseInt(d.findElement(By.tagName("body")).getDomAttribute("data-frame")))
          .isEqualTo(Integer.parseInt(before) - 1);

      // The charts drew, with a zoom slider, and the lanes carry the steps' markers.
      assertThat(d.findElements(By.cssSelector("#chart-gpus svg"))).isNotEmpty();
      assertThat(d.findElements(By.cssSelector(".marker[data-kind='Step']"))).hasSize(5);
      assertThat(chrome.consoleErrors()).isEmpty();
    }
  }

  @Test
  void changesTheConsolidationPolicyAndComparesTheCosts() throws IOException {
    try (Dashboard dashboard = Dashboard.start(Lab.scenario("scenarios/consolidation-when-empty.yaml"),
        "127.0.0.1", 0, Limits.DEFAULTS);
        HeadlessChromium chrome = HeadlessChromium.start()) {
      WebDriver d = chrome.driver();
      open(d, dashboard);
      // The event log says why the half-used node stays, as Karpenter's Unconsolidatable event does.
      step(d, dashboard, "2");
      assertThat(d.findElements(By.cssSelector("#events tbody tr")).stream().map(WebElement::getText))
          .anyMatch(t -> t.contains("Unconsolidatable: NodePool \"inference\" has non-empty consolidation disabled"));
      new Select(d.findElement(By.name("consolidationPolicy"))).selectByVisibleText("WhenEmptyOrUnderutilized");
      d.findElement(By.id("rerun")).click();
      waitFor(d).until(x -> !x.findElements(By.cssSelector("#compare tr[data-row='totalCost']")).isEmpty());
      WebElement cost = d.findElement(By.cssSelector("#compare tr[data-row='totalCost']"));
      double base = dollars(cost.findElement(By.cssSelector(".a")).getText());
      double whatIf = dollars(cost.findElement(By.cssSelector(".b")).getText());
      // The figures shown are the runs' own totals, to the cent.
      var runs = dashboard.runs();
      assertThat(base).isEqualTo(cents(runs.get(0).result().metrics().totalCost()));
      assertThat(whatIf).isEqualTo(cents(runs.get(1).result().metrics().totalCost()));
      // Consolidating the half-used node (WhenEmptyOrUnderutilized) costs less than keeping it (WhenEmpty).
      assertThat(whatIf).isLessThan(base);
      assertThat(cost.findElement(By.cssSelector(".diff")).getDomAttribute("class")).contains("better");
      assertThat(d.findElement(By.cssSelector("#compare tr[data-row='disruptions'] .b")).getText()).isNotEqualTo("0");
      // What the cheaper run costs its users: the service's time with none Ready, from the runs' own metrics.
      // Durations as the CLI writes them (KubeDuration), not raw seconds.
      assertThat(d.findElement(By.cssSelector("#compare tr[data-row='pendingP50'] .a")).getText()).isEqualTo("0s");
      WebElement service = d.findElement(By.cssSelector("#compare tr[data-row='service:Deployment/default/llm']"));
      assertThat(service.findElement(By.cssSelector(".a")).getText()).isEqualTo("0s with none Ready");
      assertThat(service.findElement(By.cssSelector(".b")).getText()).isEqualTo("30s with none Ready");
      assertThat(service.findElement(By.cssSelector(".diff")).getDomAttribute("class")).contains("worse");
      // And the expectation that failed, by name.
      assertThat(d.findElements(By.cssSelector("#compare-expectations li")).stream().map(WebElement::getText).toList())
          .containsExactly("now fails: the half-used g5.12xlarge is still there (run 0: passed; run 1: FAILED (seen: 0 nodes))");
      screenshot(d, "what-if-consolidation");
      assertThat(chrome.consoleErrors()).isEmpty();
    }
  }

  @Test
  void aRunThinnedToFewFramesSaysSoOnThePage() throws IOException {
    Limits eightFrames = new Limits(8, 2, Duration.ofSeconds(10), 8, 16 * 1024);
    try (Dashboard dashboard = Dashboard.start(Lab.lab(), "127.0.0.1", 0, eightFrames);
        HeadlessChromium chrome = HeadlessChromium.start()) {
      WebDriver d = chrome.driver();
      open(d, dashboard);
      var run = dashboard.runs().getFirst();
      assertThat(run.thinned()).isTrue();
      WebElement note = d.findElement(By.id("thinned"));
      assertThat(note.isDisplayed()).isTrue();
      assertThat(note.getText()).contains(String.format(java.util.Locale.ROOT,
          "the timeline keeps %,d frames of the run's %,d cluster changes", run.frames().size(), run.images()));
      assertThat(run.frames().size()).isLessThan((int) run.images());
      screenshot(d, "thinned-run-notice");
      assertThat(chrome.consoleErrors()).isEmpty();
    }
  }

  private static double dollars(String shown) {
    assertThat(shown).startsWith("$");
    return Double.parseDouble(shown.substring(1));
  }

  private static double cents(double v) {
    return Math.round(v * 100) / 100.0;
  }
}
