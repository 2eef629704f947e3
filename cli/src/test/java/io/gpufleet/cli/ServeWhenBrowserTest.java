package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.report.browser.HeadlessChromium;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * serve's when view in Debian's headless Chromium, used as a person would: paste a job, ask, read
 * the answer (the same figures {@code gpufleet when -o json} gives); pick a job that cannot run and
 * read why; paste broken YAML and read the error. Screenshots go to target/screenshots.
 */
class ServeWhenBrowserTest {

  static final JsonMapper JSON = JsonMapper.builder().build();

  private static WebDriverWait waitFor(WebDriver d) {
    return new WebDriverWait(d, Duration.ofSeconds(60));
  }

  /** Run time as every output writes it, +HH:MM:SS. */
  static String hms(long s) {
    return String.format("+%02d:%02d:%02d", s / 3600, s % 3600 / 60, s % 60);
  }

  private static void ask(WebDriver d) {
    String before = d.findElement(By.id("when-answer")).getDomProperty("innerHTML") + "|"
        + d.findElement(By.id("when-error")).getText();
    d.findElement(By.id("when-ask")).click();
    waitFor(d).until(x -> x.findElement(By.id("when-ask")).isEnabled()
        && !before.equals(x.findElement(By.id("when-answer")).getDomProperty("innerHTML") + "|"
            + x.findElement(By.id("when-error")).getText()));
  }

  private static void screenshot(WebDriver d, String name) throws IOException {
    Path shots = Path.of("target", "screenshots");
    Files.createDirectories(shots);
    Files.write(shots.resolve(name + ".png"), ((TakesScreenshot) d).getScreenshotAs(OutputType.BYTES));
  }

  @Test
  void asksWhenAJobWouldRunAndReadsTheAnswerTheCommandGives() throws Exception {
    ServeCommand.Listening served = ServeWhenTest.serve("-f", WhenCommandTest.CLUSTER);
    try (HeadlessChromium chrome = HeadlessChromium.start()) {
      WebDriver d = chrome.driver();
      d.manage().window().setSize(new Dimension(1500, 2200));
      d.get("http://127.0.0.1:" + served.dashboard().port() + "/");
      waitFor(d).until(x -> "true".equals(x.findElement(By.tagName("body")).getDomAttribute("data-ready")));
      WebElement section = d.findElement(By.id("when-section"));
      assertThat(section.isDisplayed()).isTrue();
      assertThat(d.findElement(By.id("when-cluster")).getText()).isEqualTo(WhenCommandTest.CLUSTER);
      assertThat(d.findElement(By.id("when-within")).getDomProperty("value")).isEqualTo("24h");
      assertThat(d.findElement(By.id("when-seeds")).getDomProperty("value")).isEqualTo("1..5");

      // Paste the fine-tuning Job, two seeds.
      d.findElement(By.id("when-job")).sendKeys(Files.readString(Path.of(WhenCommandTest.TRAIN)));
      WebElement seeds = d.findElement(By.id("when-seeds"));
      seeds.clear();
      seeds.sendKeys("1..2");
      ask(d);
      JsonNode cli = JSON.readTree(CliRun.of("when", WhenCommandTest.TRAIN, "-f", WhenCommandTest.CLUSTER, "--seeds",
          "1..2", "-o", "json").out());
      WebElement running = d.findElement(By.cssSelector("#when-quantiles tr[data-row='running']"));
      assertThat(running.findElement(By.className("p50")).getText())
          .isEqualTo(hms(cli.get("runningSeconds").get("p50").asLong()));
      assertThat(running.findElement(By.className("p90")).getText())
          .isEqualTo(hms(cli.get("runningSeconds").get("p90").asLong()));
      assertThat(d.findElement(By.cssSelector("#when-quantiles tr[data-row='done'] .p50")).getText())
          .isEqualTo(hms(cli.get("doneSeconds").get("p50").asLong()));
      assertThat(d.findElement(By.cssSelector("#when-quantiles tr[data-row='cost'] .p50")).getText())
          .isEqualTo(String.format("$%.2f", cli.get("dollars").get("p50").asDouble()));
      List<WebElement> seedRows = d.findElements(By.cssSelector("#when-runs tr[data-seed]"));
      assertThat(seedRows).hasSize(2);
      WebElement seed1 = seedRows.getFirst();
      assertThat(seed1.findElement(By.cssSelector("li[data-node='ip-10-0-1-17.ec2.internal']")).getText())
          .endsWith(": a node already there");
      // The launched node: its instance type, capacity type, zone and price, as the run recorded it.
      assertThat(seed1.findElement(By.className("nodes")).getText())
          .contains("Karpenter launched g5.xlarge on-demand in us-east-1a at $1.006/h");
      assertThat(seed1.findElement(By.className("cost")).getText())
          .isEqualTo(String.format("$%.2f", cli.get("runs").get(0).get("dollars").asDouble()));
      screenshot(d, "serve-when-train");
      // The section alone, as docs/img/dashboard-when.png shows it (the window tall enough to hold it).
      d.manage().window().setSize(new Dimension(1500, 3400));
      ((org.openqa.selenium.JavascriptExecutor) d).executeScript("arguments[0].scrollIntoView()", section);
      Files.write(Path.of("target", "screenshots", "serve-when-section.png"), section.getScreenshotAs(OutputType.BYTES));

      // Pick a file: a job no NodePool can serve. The box takes its text; the answer says why not.
      Path never = Path.of("../examples/when/never.yaml").toAbsolutePath().normalize();
      d.findElement(By.id("when-file")).sendKeys(never.toString());
      String text = Files.readString(never);
      waitFor(d).until(x -> text.equals(x.findElement(By.id("when-job")).getDomProperty("value")));
      seeds.clear();
      seeds.sendKeys("1");
      ask(d);
      assertThat(d.findElement(By.cssSelector("#when-quantiles tr[data-row='running'] .p50")).getText())
          .isEqualTo("not within the horizon");
      assertThat(d.findElement(By.cssSelector("#when-runs tr[data-seed='1'] .why")).getText())
          .contains("1 pod(s) never started; last said: ")
          .contains("Karpenter: FailedScheduling: Failed to schedule pod, incompatible with nodepool \"gpu\"");
      screenshot(d, "serve-when-never");
      d.manage().window().setSize(new Dimension(1500, 2200));

      // Broken YAML: the error, at its line, and no stale answer.
      WebElement job = d.findElement(By.id("when-job"));
      job.clear();
      job.sendKeys("apiVersion: batch/v1\nkind: Job\nmetadata: {name: x\n");
      ask(d);
      assertThat(d.findElement(By.id("when-error")).getText()).startsWith("job:4:1: invalid YAML");
      assertThat(d.findElements(By.cssSelector("#when-quantiles"))).isEmpty();
      // The 400s the page asked for, and nothing else.
      assertThat(chrome.consoleErrors()).allSatisfy(e -> assertThat(e).contains("/api/when").contains("400"));
    } finally {
      served.dashboard().close();
    }
  }

  @Test
  void aDashboardOfTheLabHasNoWhenView() throws Exception {
    ServeCommand.Listening served = ServeWhenTest.serve();
    try (HeadlessChromium chrome = HeadlessChromium.start()) {
      WebDriver d = chrome.driver();
      d.get("http://127.0.0.1:" + served.dashboard().port() + "/");
      waitFor(d).until(x -> "true".equals(x.findElement(By.tagName("body")).getDomAttribute("data-ready")));
      assertThat(d.findElement(By.id("when-section")).isDisplayed()).isFalse();
      assertThat(chrome.consoleErrors()).isEmpty();
    } finally {
      served.dashboard().close();
    }
  }
}
