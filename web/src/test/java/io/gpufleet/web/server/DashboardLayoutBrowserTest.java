package io.gpufleet.web.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.report.browser.HeadlessChromium;
import io.gpufleet.scenario.ScenarioFile;
import io.gpufleet.web.Lab;
import io.gpufleet.web.view.PlayedRun;
import io.gpufleet.web.view.StepMark;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Rectangle;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard's views, moments and layout in Debian's headless Chromium (issue 31's dashboard
 * fixes): every view in the address, Back and Forward, step buttons at their step's start, a jump
 * that says where it landed, and a page that works from a 390 px phone to a 1600 px screen.
 */
class DashboardLayoutBrowserTest {

  private static WebDriverWait waitFor(WebDriver d) {
    return new WebDriverWait(d, Duration.ofSeconds(20));
  }

  private static String base(Dashboard dashboard) {
    return "http://127.0.0.1:" + dashboard.port() + "/";
  }

  /** Opens {@code hash} (may be empty) in a fresh page load at the given size and waits until it shows. */
  private static void open(WebDriver d, Dashboard dashboard, String hash, int width, int height) {
    d.manage().window().setSize(new Dimension(width, height));
    d.get("about:blank");
    d.get(base(dashboard) + hash);
    waitFor(d).until(x -> "true".equals(x.findElement(By.tagName("body")).getDomAttribute("data-ready")));
  }

  private static void waitForFrame(WebDriver d, int frame) {
    waitFor(d).until(x -> Integer.toString(frame)
        .equals(x.findElement(By.tagName("body")).getDomAttribute("data-frame")));
  }

  private static int frame(WebDriver d) {
    return Integer.parseInt(d.findElement(By.tagName("body")).getDomAttribute("data-frame"));
  }

  private static long seconds(PlayedRun run, int frame) {
    return Duration.between(run.result().start(), run.frames().get(frame).time()).getSeconds();
  }

  /** Run time as every output writes it: +HH:MM:SS. */
  private static String hms(long s) {
    return String.format(Locale.ROOT, "+%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
  }

  private static StepMark step(PlayedRun run, String id) {
    return run.steps().stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow();
  }

  private static void click(WebDriver d, String css) {
    d.findElement(By.cssSelector(css)).click();
  }

  private static String hash(WebDriver d) {
    return (String) ((JavascriptExecutor) d).executeScript("return location.hash");
  }

  /** Jumps to a run time with the page's own control and waits until it shows the frame then. */
  private static void jumpTo(WebDriver d, PlayedRun run, long seconds) {
    WebElement input = d.findElement(By.id("jump-time"));
    input.clear();
    input.sendKeys(hms(seconds));
    click(d, "#jump");
    waitForFrame(d, run.frameAt(seconds));
  }

  /** What a test does with the page, given the dashboard serving the scenario and the browser. */
  private interface Session {
    void run(Dashboard dashboard, WebDriver d) throws IOException;
  }

  /** Serves {@code scenario}, runs {@code session} in headless Chromium, then checks the page logged no error. */
  private static void inBrowser(ScenarioFile scenario, Session session) throws IOException {
    try (Dashboard dashboard = Dashboard.start(scenario, "127.0.0.1", 0, Limits.DEFAULTS);
        HeadlessChromium chrome = HeadlessChromium.start()) {
      session.run(dashboard, chrome.driver());
      assertThat(chrome.consoleErrors()).isEmpty();
    }
  }

  private static boolean overlap(Rectangle a, Rectangle b) {
    return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  }

  @Test
  void eachStepButtonShowsTheStartOfItsStep() throws IOException {
    inBrowser(Lab.lab(), (dashboard, d) -> {
      open(d, dashboard, "", 1500, 1200);
      PlayedRun run = dashboard.runs().getFirst();
      // Visit the steps from the last to the first, so that no click lands where the page already is.
      for (StepMark s : run.steps().reversed()) {
        // A step that ends where it starts would not tell start from end.
        assertThat(s.endFrame()).as("step %s", s.id()).isGreaterThan(s.startFrame());
        click(d, ".step-button[data-step='" + s.id() + "']");
        waitFor(d).until(x -> x.findElement(By.cssSelector(".step-button[data-step='" + s.id() + "']"))
            .getDomAttribute("class").contains("active"));
        assertThat(frame(d)).as("step %s", s.id()).isEqualTo(s.startFrame());
        assertThat(d.findElement(By.id("cluster-time")).getText()).isEqualTo(hms(seconds(run, s.startFrame())));
        // The step's marker on the lanes is at the same moment.
        String marker = ".marker[data-kind='Step'][title^='" + hms(seconds(run, s.startFrame())) + " Step " + s.id() + ":']";
        assertThat(d.findElements(By.cssSelector(marker))).hasSize(1);
      }
    });
  }

  @Test
  void aJumpBetweenFramesSaysWhereItLanded() throws IOException {
    inBrowser(Lab.lab(), (dashboard, d) -> {
      open(d, dashboard, "", 1500, 1200);
      PlayedRun run = dashboard.runs().getFirst();
      int landed = run.frameAt(480);
      long at = seconds(run, landed);
      assertThat(at).as("the lab has no frame at 0:08:00").isLessThan(480);
      WebElement input = d.findElement(By.id("jump-time"));
      input.sendKeys("0:08:00");
      click(d, "#jump");
      waitForFrame(d, landed);
      String note = d.findElement(By.id("jump-note")).getText();
      assertThat(note).startsWith("No change at +00:08:00: showing " + hms(at) + " (frame " + (landed + 1) + ")");
      if (landed + 1 < run.frames().size()) {
        assertThat(note).endsWith("the next change is at " + hms(seconds(run, landed + 1)));
      }
      // A time as the page prints it (+HH:MM:SS), exactly a frame's: lands there, with nothing to explain.
      int exact = run.steps().getLast().startFrame();
      input.clear();
      input.sendKeys(hms(seconds(run, exact)));
      click(d, "#jump");
      waitFor(d).until(x -> x.findElement(By.id("jump-note")).getText().isEmpty());
      // The moment now comes from the server: the note clears at the click, the frame once it arrives.
      waitFor(d).until(x -> seconds(run, frame(x)) == seconds(run, exact));
      assertThat(d.findElement(By.id("cluster-time")).getText()).isEqualTo(hms(seconds(run, exact)));
    });
  }

  @Test
  void theAddressNamesTheMomentAndBackAndForwardWork() throws IOException {
    inBrowser(Lab.lab(), (dashboard, d) -> {
      PlayedRun run = dashboard.runs().getFirst();
      int second = step(run, "3.2").startFrame();
      int fourth = step(run, "3.4").startFrame();
      // Opening an address shows its moment.
      open(d, dashboard, "#run=0&frame=" + fourth, 1500, 1200);
      assertThat(frame(d)).isEqualTo(fourth);
      assertThat(d.findElement(By.id("cluster-time")).getText()).isEqualTo(hms(seconds(run, fourth)));
      // A moment by run time: the last frame by then, as the server finds it.
      open(d, dashboard, "#run=0&t=%2B00:06:10", 1500, 1200);
      assertThat(frame(d)).isEqualTo(run.frameAt(370));
      if (seconds(run, run.frameAt(370)) != 370) {
        assertThat(d.findElement(By.id("jump-note")).getText())
            .startsWith("No change at +00:06:10: showing " + hms(seconds(run, run.frameAt(370))));
      }
      // Moves land in the address; Back and Forward replay them.
      open(d, dashboard, "", 1500, 1200);
      assertThat(frame(d)).isZero();
      click(d, ".step-button[data-step='3.2']");
      waitForFrame(d, second);
      assertThat(hash(d)).contains("frame=" + second);
      click(d, ".step-button[data-step='3.4']");
      waitForFrame(d, fourth);
      assertThat(hash(d)).contains("frame=" + fourth);
      String linked = hash(d);
      d.navigate().back();
      waitForFrame(d, second);
      d.navigate().back();
      waitForFrame(d, 0);
      d.navigate().forward();
      waitForFrame(d, second);
      d.navigate().forward();
      waitForFrame(d, fourth);
      // The address copied from the page opens the same view.
      open(d, dashboard, linked, 1500, 1200);
      assertThat(frame(d)).isEqualTo(fourth);
    });
  }

  @Test
  void aWhatIfKeepsTheMomentAndItsComparisonIsInTheAddress() throws IOException {
    inBrowser(Lab.scenario("scenarios/consolidation-when-empty.yaml"), (dashboard, d) -> {
      open(d, dashboard, "", 1500, 1200);
      PlayedRun run = dashboard.runs().getFirst();
      int moment = run.frameAt(seconds(run, run.steps().getLast().startFrame()));
      assertThat(moment).isPositive();
      jumpTo(d, run, seconds(run, moment));
      new Select(d.findElement(By.name("consolidationPolicy"))).selectByVisibleText("WhenEmptyOrUnderutilized");
      click(d, "#rerun");
      waitFor(d).until(x -> !x.findElements(By.cssSelector("#compare tr[data-row='totalCost']")).isEmpty());
      waitFor(d).until(x -> hash(x).contains("compare=0,1"));
      // Still the moment the user was at, not frame 1.
      assertThat(frame(d)).isEqualTo(moment);
      String shown = d.findElement(By.cssSelector("#compare tr[data-row='totalCost'] .b")).getText();
      // The address reopens the run, the moment and the comparison.
      String linked = hash(d);
      assertThat(linked).contains("run=0").contains("frame=" + moment);
      open(d, dashboard, linked, 1500, 1200);
      assertThat(frame(d)).isEqualTo(moment);
      assertThat(d.findElement(By.cssSelector("#compare tr[data-row='totalCost'] .b")).getText()).isEqualTo(shown);
      // The what-if's run, by address, with the comparison still beside it.
      open(d, dashboard, "#run=1&frame=0&compare=0,1", 1500, 1200);
      assertThat(new Select(d.findElement(By.id("run-select"))).getFirstSelectedOption().getDomAttribute("value"))
          .isEqualTo("1");
      assertThat(d.findElement(By.id("run-label")).getText()).isEqualTo(dashboard.runs().get(1).label());
      assertThat(d.findElements(By.cssSelector("#compare tr[data-row='totalCost']"))).hasSize(1);
    });
  }

  @Test
  void at390PixelsNothingOverlapsAndNothingRunsOffTheScreen() throws IOException {
    inBrowser(Lab.lab(), (dashboard, d) -> {
      PlayedRun run = dashboard.runs().getFirst();
      // The end of step 3.4: two GPU nodes, so two cards.
      open(d, dashboard, "", 390, 844);
      jumpTo(d, run, seconds(run, step(run, "3.4").endFrame()));
      JavascriptExecutor js = (JavascriptExecutor) d;
      long viewport = (Long) js.executeScript("return document.documentElement.clientWidth");
      List<WebElement> cards = d.findElements(By.cssSelector(".node-card"));
      assertThat(cards).hasSize(2);
      Rectangle log = d.findElement(By.id("log")).getRect();
      Rectangle pending = d.findElement(By.id("pending")).getRect();
      for (WebElement card : cards) {
        Rectangle r = card.getRect();
        assertThat(overlap(r, log)).as("card %s overlaps the event table", card.getDomAttribute("data-node")).isFalse();
        assertThat(r.x).isGreaterThanOrEqualTo(0);
        assertThat(r.x + r.width).as("card's right edge").isLessThanOrEqualTo((int) viewport);
        for (WebElement other : cards) {
          if (other != card) {
            assertThat(overlap(r, other.getRect())).isFalse();
          }
        }
        if (pending.height > 0) {
          assertThat(overlap(r, pending)).isFalse();
        }
      }
      // No part of the page is wider than the phone: no sideways scrolling.
      long page = (Long) js.executeScript("return document.documentElement.scrollWidth");
      assertThat(page).isLessThanOrEqualTo(viewport);
      for (String id : List.of("timeline", "log", "lanes", "whatif")) {
        Rectangle r = d.findElement(By.id(id)).getRect();
        assertThat(r.x + r.width).as(id).isLessThanOrEqualTo((int) viewport);
      }
      DashboardBrowserTest.screenshot(d, "layout-390px");
    });
  }

  @Test
  void at1600PixelsTheEventMessagesWrapInsideTheTable() throws IOException {
    // consolidation-when-empty's Unconsolidatable messages overflowed the old table at 1600 px.
    for (String scenario : List.of("lab/lab.yaml", "scenarios/consolidation-when-empty.yaml",
        "scenarios/inference-spot.yaml")) {
      messagesWrapAt1600(scenario);
    }
  }

  private static void messagesWrapAt1600(String scenario) throws IOException {
    inBrowser(Lab.scenario(scenario), (dashboard, d) -> {
      PlayedRun run = dashboard.runs().getFirst();
      open(d, dashboard, "", 1600, 1000);
      JavascriptExecutor js = (JavascriptExecutor) d;
      boolean wrapped = false;
      // The start, each step's end and the last frame: each shows other events.
      List<Integer> moments = new java.util.ArrayList<>(List.of(0));
      run.steps().forEach(s -> moments.add(s.endFrame()));
      moments.add(run.frames().size() - 1);
      for (int moment : moments) {
        jumpTo(d, run, seconds(run, moment));
        WebElement log = d.findElement(By.id("log"));
        // The event box scrolls down, never sideways: no message runs past its right edge.
        assertThat((Long) js.executeScript("return arguments[0].scrollWidth - arguments[0].clientWidth", log))
            .as("%s: sideways overflow at frame %d", scenario, moment).isZero();
        Rectangle box = log.getRect();
        List<WebElement> messages = d.findElements(By.cssSelector("#events tbody td:nth-child(4)"));
        assertThat(messages).isNotEmpty();
        for (WebElement m : messages) {
          Rectangle r = m.getRect();
          assertThat(r.x + r.width).as("message %s", m.getText()).isLessThanOrEqualTo(box.x + box.width);
          assertThat((Long) js.executeScript("return arguments[0].scrollWidth - arguments[0].clientWidth", m)).isZero();
          double lineHeight = Double.parseDouble(((String) js.executeScript(
              "return getComputedStyle(arguments[0]).lineHeight", m)).replace("px", ""));
          wrapped |= r.height > 1.5 * lineHeight;
        }
      }
      // The lab has messages longer than the column: they take more than one line, whole.
      assertThat(wrapped).isTrue();
    });
  }
}
