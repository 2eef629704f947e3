package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/** {@code schedule -o json} carries the claims table beside the pods. */
class DraScheduleJsonTest {

  private static final Path EXAMPLE = Path.of("..", "examples", "dra", "gpu-claim-template.yaml");

  @Test
  @SuppressWarnings("unchecked")
  void theJsonHasTheClaimsWithTheirAllocationsAndReservations() {
    CliRun run = CliRun.of("schedule", "-f", EXAMPLE.toString(), "-o", "json");
    assertThat(run.exitCode()).isZero();
    Map<String, Object> root = JsonMapper.builder().build().readValue(run.out(), Map.class);
    List<Map<String, Object>> claims = (List<Map<String, Object>>) root.get("claims");
    // The text output's claim table, row for row.
    CliRun text = CliRun.of("schedule", "-f", EXAMPLE.toString());
    for (Map<String, Object> c : claims) {
      String line = text.out().lines().filter(l -> l.startsWith(c.get("namespace") + " ") && l.contains(
          " " + c.get("name") + " ")).findFirst().orElseThrow(() -> new AssertionError(c + " not in\n" + text.out()));
      assertThat(line).contains((String) c.get("state"));
      List<Map<String, Object>> results = (List<Map<String, Object>>) c.get("results");
      for (Map<String, Object> r : results) {
        assertThat(line).contains(r.get("request") + ": " + r.get("driver") + "/" + r.get("pool") + "/"
            + r.get("device"));
      }
      for (Map<String, Object> r : (List<Map<String, Object>>) c.get("reservedFor")) {
        assertThat(r).containsEntry("resource", "pods");
        assertThat(line).contains((String) r.get("name"));
      }
    }
    Map<String, Object> trainer = claims.stream().filter(c -> c.get("name").equals("trainer-gpu")).findFirst()
        .orElseThrow();
    assertThat(trainer).containsEntry("state", "allocated,reserved").containsEntry("node", "h100-node");
    assertThat((List<Map<String, Object>>) trainer.get("reservedFor")).containsExactly(
        Map.of("resource", "pods", "name", "trainer"));
    Map<String, Object> waits = claims.stream().filter(c -> c.get("name").equals("waits-for-b200-gpu")).findFirst()
        .orElseThrow();
    assertThat(waits).containsEntry("state", "pending").containsEntry("node", null);
    assertThat((List<?>) waits.get("results")).isEmpty();
  }

  @Test
  void withoutClaimsTheJsonIsThePodsAlone(@TempDir Path dir) throws java.io.IOException {
    Path f = dir.resolve("plain.yaml");
    Files.writeString(f, """
        apiVersion: v1
        kind: Node
        metadata: {name: n}
        status:
          allocatable: {cpu: "4", memory: 16Gi, pods: "110"}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          containers: [{name: c, resources: {requests: {cpu: "1"}}}]
        """);
    CliRun run = CliRun.of("schedule", "-f", f.toString(), "-o", "json");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("\"pods\"").doesNotContain("\"claims\"");
  }
}
