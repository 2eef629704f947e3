package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * report.html shows each step's events, nodes and pods and the run's event log as HTML tables (only
 * the nvidia-smi picture stays preformatted), with the rows the dashboard's event log is made of.
 */
class ReportTablesTest {

  private static final Pattern ROW = Pattern.compile("<tr>((?:<td>.*?</td>)+)</tr>");
  private static final Pattern CELL = Pattern.compile("<td>(.*?)</td>");

  private static List<List<String>> rows(String table) {
    List<List<String>> out = new ArrayList<>();
    Matcher r = ROW.matcher(table);
    while (r.find()) {
      List<String> cells = new ArrayList<>();
      Matcher c = CELL.matcher(r.group(1));
      while (c.find()) {
        cells.add(c.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'")
            .replace("&amp;", "&"));
      }
      out.add(cells);
    }
    return out;
  }

  private static String between(String html, String from, String to) {
    int a = html.indexOf(from);
    assertThat(a).as(from).isNotNegative();
    return html.substring(a, html.indexOf(to, a));
  }

  @Test
  void theLabsStepsAndEventLogAreTablesWithTheRunRecordsRows(@TempDir Path out) throws IOException {
    CliRun run = CliRun.of("simulate", Path.of("..", "examples", "lab", "lab.yaml").toString(), "--out",
        out.toString(), "-q");
    assertThat(run.exitCode()).as(run.err()).isZero();
    String html = Files.readString(out.resolve("report.html"));

    String steps = between(html, "<h2>Steps</h2>", "<h2>Event log</h2>");
    assertThat(steps.split("<section class=\"step\">", -1)).hasSize(6);
    assertThat(steps).contains("<table class=\"step\">", "<th>EVENT</th>", "<th>NODE</th>", "<th>READY AFTER</th>");
    // Preformatted text is left only for the per-card nvidia-smi picture.
    assertThat(steps.split("<pre>", -1).length - 1).isEqualTo(steps.split("<h4><code>\\$ nvidia-smi", -1).length - 1);
    String step34 = between(steps, "3.4 The fifth pod", "</section>");
    assertThat(rows(step34)).anySatisfy(r -> assertThat(r.subList(1, 4)).containsExactly("PodCreated",
        "default/vllm-fifth", "")).anySatisfy(r -> assertThat(r.get(1)).isEqualTo("NodeclaimLaunched"));

    // The event log: one row per entry of events.jsonl, the same time, reason, object and message.
    List<String> jsonl = Files.readAllLines(out.resolve("events.jsonl"));
    List<List<String>> log = rows(between(html, "<table class=\"log\">", "</table>"));
    assertThat(log).hasSize(jsonl.size());
    JsonMapper json = JsonMapper.builder().build();
    for (int i = 0; i < jsonl.size(); i++) {
      JsonNode e = json.readTree(jsonl.get(i));
      assertThat(log.get(i)).as("entry " + i).containsExactly(e.get("offset").asString(), e.get("kind").asString(),
          e.get("subject").asString(), e.get("message").asString());
    }
  }
}
