package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.report.browser.HeadlessChromium;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/** The README's first command: the whole lab, step by step, with its report. */
class LabCommandTest {

  @TempDir static Path dir;
  static CliRun lab;
  static CliRun wide;
  static Path report;

  @BeforeAll
  static void runTheLab() {
    report = dir.resolve("report.html");
    lab = CliRun.of("lab", "--report", report.toString());
    // The rows whole, as the patterns below read them; TerminalWidthTest holds both to the same text.
    wide = CliRun.of("lab", "--wide");
  }

  private static String step(String id) {
    String out = wide.out();
    int start = out.indexOf("\n" + id + " ");
    int end = out.indexOf("\n====", out.indexOf("\n====", start + 1) + 1);
    return out.substring(start, end < 0 ? out.length() : end);
  }

  @Test
  void playsAllFiveStepsInOrderAndExitsZero() {
    assertThat(lab.exitCode()).isZero();
    assertThat(lab.out()).containsSubsequence("3.1 Warm the image cache", "3.2 Time-slice the lab node",
        "3.3 Four pods, one GPU", "3.4 The fifth pod", "3.5 Reset for Lab 2", "expectations    3 of 3 passed");
    assertThat(lab.err()).isEmpty();
  }

  @Test
  void warmingTheCacheMakesLaterPodsStartWithoutTheDownload() {
    // The pre-pull pod waits minutes for the 9 GB image; the sliced pods on the same node, seconds.
    assertThat(step("3.1")).containsPattern("vllm-prepull-\\w{5}\\s+1/1\\s+Running\\s+ip-10-0-1-17\\S*\\s+-\\s+\\S+\\s+4m50s");
    assertThat(step("3.3")).containsPattern("vllm-sliced-\\w+-\\w{5}\\s+1/1\\s+Running\\s+\\S+\\s+nvidia.com/gpu=1\\s+50s\\s+50s");
  }

  @Test
  void timeSlicingTakesTheNodeFromOneGpuToFour() {
    assertThat(step("3.1")).containsPattern("ip-10-0-1-17.ec2.internal\\s+Ready\\s+g5.xlarge\\s+on-demand\\s+gpu\\s+"
        + "nvidia.com/gpu=1\\s+nvidia.com/gpu=1");
    assertThat(step("3.2")).contains("advertises {nvidia.com/gpu: 4} (config time-sliced-4)")
        .containsPattern("nvidia.com/gpu=4\\s+nvidia.com/gpu=4\\s+-");
  }

  @Test
  void fourPodsShareGpuZero() {
    String s = step("3.3");
    assertThat(s.lines().filter(l -> l.matches("\\s+\\| 0 +- +GPU-[0-9a-f-]+::[0-3] +default/vllm-sliced.*"))).hasSize(4);
  }

  @Test
  void theFifthPodBringsASecondUnslicedNode() {
    String s = step("3.4");
    assertThat(s).contains("0/1 nodes are available: 1 Insufficient nvidia.com/gpu.")
        // lab.yaml: 3m launch to registration, then the plugin's pod pulls its image (20 s default, beside
        // vLLM's 9 GB pull), starts (5 s) and registers 30 s later: 3m55s.
        .containsPattern("g5.xlarge on-demand in us-east-1a at \\$1.006/h, launched at \\+\\d\\d:\\d\\d:\\d\\d, initialised at "
            + "\\+\\d\\d:\\d\\d:\\d\\d \\(3m55s later")
        .contains("advertises {nvidia.com/gpu: 1} (config default)");
    assertThat(s).containsPattern("vllm-fifth\\s+1/1\\s+Running\\s+gpu-\\w+");
  }

  @Test
  void resetShowsTheReRegistrationAndKeepsTheFifthPod() {
    String s = step("3.5");
    assertThat(s).contains("The cluster after the plugin re-registered unsliced")
        .containsPattern("ip-10-0-1-17.ec2.internal\\s+Ready\\s+\\S+\\s+\\S+\\s+gpu\\s+nvidia.com/gpu=1\\s+"
            + "nvidia.com/gpu=1\\s+nvidia.com/gpu=4")
        .contains("passed: default/vllm-fifth ready");
  }

  @Test
  void stopsAfterAStepAndExplainsWhenAsked() {
    CliRun partial = CliRun.of("lab", "--step", "3.3", "--explain", "--report", dir.resolve("p.html").toString());
    assertThat(partial.exitCode()).isZero();
    assertThat(partial.out()).contains("3.3 Four pods, one GPU").doesNotContain("3.4 The fifth pod").contains("Why:");
    assertThat(lab.out()).doesNotContain("Why:");
  }

  @Test
  void anUnknownStepIsAUsageError() {
    CliRun bad = CliRun.of("lab", "--step", "9.9", "--report", dir.resolve("x.html").toString());
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err()).contains("--step: expected one of 3.1, 3.2, 3.3, 3.4, 3.5, found \"9.9\"");
  }

  /** The whole lab as a user sees it, against a reviewed copy (-Dgolden.update=true rewrites it). */
  @Test
  void theLabsOutputMatchesItsGoldenFile() {
    io.gpufleet.report.Golden.check("lab.txt", lab.out().replace(report.toString(), "report.html"));
  }

  @Test
  void twoRunsAreByteIdentical() throws IOException {
    Path again = dir.resolve("again.html");
    CliRun second = CliRun.of("lab", "--report", again.toString());
    assertThat(second.out()).isEqualTo(lab.out().replace(report.toString(), again.toString()));
    assertThat(Files.readString(again)).isEqualTo(Files.readString(report));
  }

  @Test
  void theReportOpensInChromiumWithChartsAndNoConsoleErrors() {
    try (HeadlessChromium chrome = HeadlessChromium.start()) {
      assertThat(chrome.open(report)).isEmpty();
      assertThat(chrome.driver().findElements(By.cssSelector("figure svg"))).hasSizeGreaterThanOrEqualTo(5);
      assertThat(chrome.driver().findElement(By.tagName("h1")).getText()).isEqualTo("gpufleet: gpu-sharing-lab");
      assertThat(chrome.driver().getPageSource()).contains("Pods on cards").contains("Cumulative cost");
    }
  }
}
