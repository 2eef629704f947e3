package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** report.html draws each node's life and marks what disrupted it, from the dashboard's own code. */
class ReportLifecycleTest {

  private static final Path EXAMPLES = Path.of("..", "examples");

  /** Simulates an example and returns its report.html. */
  private static String report(String example, Path out) throws IOException {
    CliRun run = CliRun.of("simulate", EXAMPLES.resolve(example).toString(), "--out", out.toString(), "-q");
    assertThat(run.exitCode()).as(run.err()).isZero();
    return Files.readString(out.resolve("report.html"));
  }

  @Test
  void theSpotExamplesReportMarksTheInterruptionAndTheNodesLane(@TempDir Path out) throws IOException {
    String html = report("scenarios/inference-spot.yaml", out);
    int at = html.indexOf("<figure id=\"node-lifecycle\">");
    assertThat(at).as("the lifecycle figure").isNotNegative();
    String figure = html.substring(at, html.indexOf("</figure>", at));
    assertThat(figure).contains("interruptions, disruptions", "SpotInterruptionWarning", "initialized", "draining");
    assertThat(html).contains("GPUs advertised");
  }

  @Test
  void theLabsReportShowsTheAdvertisedGpusGoFromOneToFourAndBack(@TempDir Path out) throws IOException {
    String html = report("lab/lab.yaml", out);
    assertThat(html).contains("GPUs advertised", "<figure id=\"node-lifecycle\">");
    assertThat(html).doesNotContain("interruptions, disruptions");
  }
}
