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

  @Test
  void theSpotExamplesReportMarksTheInterruptionAndTheNodesLane(@TempDir Path out) throws IOException {
    CliRun run = CliRun.of("simulate", EXAMPLES.resolve("scenarios/inference-spot.yaml").toString(),
        "--out", out.toString(), "-q");
    assertThat(run.exitCode()).as(run.err()).isZero();
    String html = Files.readString(out.resolve("report.html"));
    int at = html.indexOf("<figure id=\"node-lifecycle\">");
    assertThat(at).as("the lifecycle figure").isNotNegative();
    String figure = html.substring(at, html.indexOf("</figure>", at));
    assertThat(figure).contains("interruptions, disruptions", "SpotInterruptionWarning", "initialized", "draining");
    assertThat(html).contains("GPU devices advertised");
  }

  @Test
  void theLabsReportShowsTheAdvertisedGpusGoFromOneToFourAndBack(@TempDir Path out) throws IOException {
    CliRun run = CliRun.of("simulate", EXAMPLES.resolve("lab/lab.yaml").toString(),
        "--out", out.toString(), "-q");
    assertThat(run.exitCode()).as(run.err()).isZero();
    String html = Files.readString(out.resolve("report.html"));
    assertThat(html).contains("GPU devices advertised", "<figure id=\"node-lifecycle\">");
    assertThat(html).doesNotContain("interruptions, disruptions");
  }
}
