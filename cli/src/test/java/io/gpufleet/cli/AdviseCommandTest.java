package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The "done when" of the advise issue, through the command line. */
class AdviseCommandTest {

  private static final Path EXAMPLES = Path.of("..", "examples", "advise");

  private static String example(String name) {
    return EXAMPLES.resolve(name).toString();
  }

  @Test
  void fourInferenceReplicasOnA10gFromFlags() {
    CliRun run = CliRun.wide("advise", "--gpu", "A10G", "--tenants", "4", "--model-params", "1.5B", "--slo-p99", "50ms",
        "--rate", "5", "--trust", "trusted", "--kind", "inference");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("RANK   OPTION").contains("RECOMMENDATION").contains("Run time-slicing x4")
        .contains("The numbers overrule it here").contains("1 decode step per request assumed")
        .contains("blocked: MIG does not exist on NVIDIA A10G");
  }

  @Test
  void twelveNotebooksOnL4() {
    CliRun run = CliRun.wide("advise", "-f", example("l4-notebooks.yaml"));
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("Run time-slicing x6: 2 L4 GPUs").contains("would run out of GPU memory")
        .contains("agrees      The rule of thumb says: Higher utilisation");
  }

  @Test
  void sevenUntrustedTenantsOnH100() {
    CliRun run = CliRun.wide("advise", "-f", example("h100-untrusted.yaml"));
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("Run MIG 1g.10gb: 1 H100-80GB GPU on 1 x p5.4xlarge")
        .contains("blocked: Untrusted tenants cannot share a card without isolation");
  }

  @Test
  void anyGpuComparesEveryPricedGpuTypeBestFirst() {
    CliRun run = CliRun.wide("advise", "-f", example("a10g-inference.yaml"), "--gpu", "any");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).startsWith("gpufleet advise: every priced GPU type, best pick first")
        .contains("A10G ").contains("H100-80GB ").contains("B200 ");
    assertThat(run.out().lines().skip(3).findFirst().orElseThrow()).doesNotContain("(none usable)");
  }

  @Test
  void jsonCarriesEveryOption() {
    CliRun run = CliRun.wide("advise", "-f", example("h100-untrusted.yaml"), "-o", "json");
    assertThat(run.exitCode()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(run.out());
    assertThat(root.get("recommended").asString()).isEqualTo("MIG 1g.10gb");
    assertThat(root.get("options").size()).isGreaterThanOrEqualTo(4);
    JsonNode first = root.get("options").get(0);
    assertThat(first.get("instanceType").asString()).isEqualTo("p5.4xlarge");
    assertThat(first.get("perWorkload").get(0).get("p99Ms").asDouble()).isPositive();
    assertThat(root.get("p99VsTenants").get("p99MsByTenants").has("MIG")).isTrue();
  }

  @Test
  void htmlIsOnePageWithAnInlineChartAndNothingFetched(@TempDir Path dir) throws IOException {
    Path page = dir.resolve("advice.html");
    CliRun run = CliRun.wide("advise", "-f", example("a10g-inference.yaml"), "-o", "html", "--out", page.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    String html = Files.readString(page);
    assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg").contains("p99 SLO").contains("</html>");
    assertThat(html.replace("http://www.w3.org/2000/svg", "")).doesNotContain("http://").doesNotContain("https://")
        .doesNotContain("<script").doesNotContain("<link");
  }

  @Test
  void sameInputSameBytes() {
    String a = CliRun.wide("advise", "-f", example("l4-notebooks.yaml"), "-o", "json").out();
    String b = CliRun.wide("advise", "-f", example("l4-notebooks.yaml"), "-o", "json").out();
    assertThat(a).isEqualTo(b);
  }

  @Test
  void calibrationTableShowsEveryClosedLoopRow() {
    CliRun run = CliRun.wide("advise", "--calibration");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("CLOSED LOOP").contains("OPEN LOOP").contains("small      mps            8");
  }

  @Test
  void aCalibrationFileIsFittedShownAgainstEveryRowAndNamedInTheAdvice() {
    String file = Path.of("..", "data", "h200-bench-sharing", "closed-loop.json").toString();
    CliRun table = CliRun.wide("advise", "--calibration", "--calibration-file", file);
    assertThat(table.exitCode()).isZero();
    assertThat(table.out()).startsWith("CALIBRATION (fitted to " + file + " (NVIDIA H200, 24 closed-loop rows))")
        .contains("small      mps-capped     8").doesNotContain("OPEN LOOP");
    CliRun advice = CliRun.wide("advise", "--calibration-file", file, "--gpu", "H200", "--tenants", "4",
        "--model-params", "1.5B", "--rate", "5");
    assertThat(advice.exitCode()).isZero();
    assertThat(advice.out()).contains("Calibration: fitted to " + file + " (NVIDIA H200, 24 closed-loop rows).");
    assertThat(CliRun.wide("advise", "--gpu", "H200", "--tenants", "4", "--model-params", "1.5B", "--rate", "5").out())
        .contains("Calibration: fitted to the built-in rows of one NVIDIA H200");
  }

  @Test
  void aBadCalibrationFileNamesTheFileAndWhereExitTwo(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("bench.json");
    Files.writeString(f, "{\n  \"format\": \"gpufleet-sharing-measurement/1\",\n  \"closedLoop\": [1,\n");
    CliRun run = CliRun.wide("advise", "--calibration", "--calibration-file", f.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).startsWith("gpufleet advise: " + f + ":4:1: not JSON:").doesNotContain("Exception");
    Files.writeString(f, """
        {"format": "gpufleet-sharing-measurement/1", "card": {"catalogId": "H200-141GB"},
         "workloads": [{"name": "big", "bytesPerRequest": 12884901888}, {"name": "small", "kernelsPerRequest": 768}],
         "closedLoop": [{"workload": "big", "mode": "mps", "tenants": 1, "throughput": 270, "p50Ms": 3.7, "p99Ms": 3.8}]}
        """);
    // One row fits what it determines; the rest is named, with the runs that measure it.
    CliRun thin = CliRun.wide("advise", "--calibration", "--calibration-file", f.toString());
    assertThat(thin.exitCode()).isZero();
    assertThat(thin.out()).contains("NOT MEASURED IN THIS FILE")
        .contains("* overlappedBandwidth is the built-in H200 value (the file has no big mps rows with 1, 2, 4, 8 "
            + "tenants), so memory-bound MPS and capped-MPS tenants that overlap rest on it; measure: gpufleet "
            + "bench-sharing --workloads big --modes mps --tenants 1,2,4,8 --seconds 4 --json-file big-mps.json\n");
  }

  /** The failure: time-slicing and capped MPS only used to stop at "no rows to fit to". */
  @Test
  void timeSlicingAndCappedMpsAloneFitAndSayWhatRestsOnTheBuiltInValues(@TempDir Path dir) throws IOException {
    Path run1 = Path.of("..", "data", "h100-bench-sharing", "run-1", "closed-loop.json");
    var json = tools.jackson.databind.json.JsonMapper.builder().build();
    var root = (tools.jackson.databind.node.ObjectNode) json.readTree(Files.readString(run1));
    var rows = (tools.jackson.databind.node.ArrayNode) root.get("closedLoop");
    for (int i = rows.size() - 1; i >= 0; i--) {
      if (rows.get(i).get("mode").asString().equals("mps")) {
        rows.remove(i);
      }
    }
    Path f = dir.resolve("ts-capped.json");
    Files.writeString(f, json.writeValueAsString(root));
    CliRun advice = CliRun.wide("advise", "--calibration-file", f.toString(), "--gpu", "H100", "--tenants", "8",
        "--kernels", "768", "--rate", "60", "--memory", "1Gi");
    assertThat(advice.exitCode()).as(advice.err()).isZero();
    assertThat(advice.out())
        .contains("Calibration: overlappedBandwidth is the built-in H200 value (the file has no big mps rows with 1, 2, 4, 8 tenants)")
        .contains("Calibration: memory-bound tenants under mps use the fitted constants (no big mps rows with 1 tenant "
            + "and more); measure: gpufleet bench-sharing --workloads big --modes mps --tenants 1,2,4,8 --seconds 4 "
            + "--json-file big-mps.json.")
        .doesNotContain("launchBoundGpuShare is the built-in");
  }

  /** The H100's run-1 predates mps-capped-solo: advise names the rows and the run that measures them. */
  @Test
  void aFileWithoutLoneCappedRowsNamesThemAndOneWithThemUsesThem(@TempDir Path dir) throws IOException {
    Path run1 = Path.of("..", "data", "h100-bench-sharing", "run-1", "closed-loop.json");
    CliRun without = CliRun.wide("advise", "--calibration", "--calibration-file", run1.toString());
    assertThat(without.exitCode()).as(without.err()).isZero();
    String big = "gpufleet bench-sharing --workloads big --modes mps-capped-solo --tenants 1,2,4,8 --seconds 4 "
        + "--json-file big-mps-capped-solo.json";
    assertThat(without.out()).contains("NOT MEASURED IN THIS FILE")
        .contains("* memory-bound capped-MPS tenants whose co-tenants are idle take the uncapped lone time (no big "
            + "mps-capped-solo rows: one client under the cap of N); measure: " + big + "\n")
        .contains("* launch-bound capped-MPS tenants whose co-tenants are idle take the uncapped lone time (no small "
            + "mps-capped-solo rows: one client under the cap of N); measure: gpufleet bench-sharing --workloads small "
            + "--modes mps-capped-solo --tenants 1,2,4,8 --seconds 4 --json-file small-mps-capped-solo.json\n")
        .contains("* cappedBandwidthExponent is 0, taking a lone capped client as fast as an uncapped one");
    // The same file with lone capped rows (synthetic: 12% of the SMs at half the lone speed) added.
    var json = tools.jackson.databind.json.JsonMapper.builder().build();
    var root = (tools.jackson.databind.node.ObjectNode) json.readTree(Files.readString(run1));
    var rows = (tools.jackson.databind.node.ArrayNode) root.get("closedLoop");
    double[][] solo = {{1, 216.4}, {2, 190.0}, {4, 150.0}, {8, 108.2}};
    for (String w : List.of("big", "small")) {
      for (double[] r : solo) {
        double x = w.equals("big") ? r[1] : r[1] * 390.3 / 216.4;
        rows.addObject().put("workload", w).put("mode", "mps-capped-solo").put("tenants", (int) r[0])
            .put("threadPercentage", 100 / (int) r[0]).put("throughput", x).put("p50Ms", 1000 / x).put("p99Ms", 1100 / x);
      }
    }
    Path f = dir.resolve("with-solo.json");
    Files.writeString(f, json.writeValueAsString(root));
    CliRun with = CliRun.wide("advise", "--calibration", "--calibration-file", f.toString());
    assertThat(with.exitCode()).as(with.err()).isZero();
    assertThat(with.out()).contains("big        mps-capped-solo   8").doesNotContain("mps-capped-solo rows")
        .doesNotContain("cappedBandwidthExponent is 0");
    CliRun advice = CliRun.wide("advise", "--calibration-file", f.toString(), "--gpu", "H100", "--tenants", "8",
        "--kernels", "768", "--rate", "30", "--memory", "1Gi");
    assertThat(advice.exitCode()).as(advice.err()).isZero();
    assertThat(advice.out()).doesNotContain("mps-capped-solo rows");
    // The same rows as the run the note names, in a file of their own, given beside run-1.
    var soloOnly = root.deepCopy();
    var soloRows = (tools.jackson.databind.node.ArrayNode) soloOnly.get("closedLoop");
    for (int i = soloRows.size() - 1; i >= 0; i--) {
      if (!soloRows.get(i).get("mode").asString().equals("mps-capped-solo")) {
        soloRows.remove(i);
      }
    }
    Path s = dir.resolve("solo.json");
    Files.writeString(s, json.writeValueAsString(soloOnly));
    CliRun two = CliRun.wide("advise", "--calibration", "--calibration-file", run1.toString(), "--calibration-file",
        s.toString());
    assertThat(two.exitCode()).as(two.err()).isZero();
    assertThat(two.out()).startsWith("CALIBRATION (fitted to " + run1 + " + " + s + " (NVIDIA H100 80GB HBM3, 32 closed-loop rows))")
        .doesNotContain("mps-capped-solo rows");
    // A file of another card is refused, naming both.
    ((tools.jackson.databind.node.ObjectNode) soloOnly.get("card")).put("catalogId", "H200-141GB");
    Files.writeString(s, json.writeValueAsString(soloOnly));
    CliRun other = CliRun.wide("advise", "--calibration", "--calibration-file", run1.toString(), "--calibration-file",
        s.toString());
    assertThat(other.exitCode()).isEqualTo(2);
    assertThat(other.err()).isEqualTo("gpufleet advise: " + s + ": card.catalogId: expected \"H100-80GB\", the card of "
        + run1 + ", found \"H200-141GB\"\n");
  }

  @Test
  void badFlagIsOneLineNamingTheFlagAndExitTwo() {
    CliRun run = CliRun.wide("advise", "--gpu", "A10G", "--tenants", "4", "--model-params", "lots", "--rate", "5");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).isEqualTo("gpufleet advise: --model-params: expected a parameter count such as 1.5B, found \"lots\"\n");
    CliRun missing = CliRun.wide("advise", "--gpu", "A10G", "--model-params", "1.5B");
    assertThat(missing.exitCode()).isEqualTo(2);
    assertThat(missing.err()).isEqualTo("gpufleet advise: --rate: required: requests per second per replica\n");
    CliRun gpu = CliRun.wide("advise", "--gpu", "Z9", "--model-params", "1.5B", "--rate", "1");
    assertThat(gpu.exitCode()).isEqualTo(2);
    assertThat(gpu.err()).startsWith("gpufleet advise: --gpu: unknown GPU \"Z9\"").doesNotContain("Exception");
  }

  @Test
  void badFileIsReportedAtLineAndColumnExitTwo(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("p.yaml");
    Files.writeString(f, """
        apiVersion: gpufleet.io/v1alpha1
        kind: WorkloadProfile
        metadata: {name: x}
        spec:
          gpu: A10G
          request: {model: {parameters: 1.5B}}
          load: {rate: often}
        """);
    CliRun run = CliRun.wide("advise", "-f", f.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains(f + ":7:16: spec.load.rate: expected a rate in requests per second")
        .doesNotContain("Exception");
  }

  @Test
  void tenantsBeyondTheLimitAreRefusedAtOnce() {
    CliRun run = CliRun.wide("advise", "--gpu", "L4", "--tenants", "1000000", "--model-params", "1B", "--rate", "1");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).isEqualTo("gpufleet advise: --tenants: expected 1 to 2000 (advise's limit), found 1000000\n");
  }

  @Test
  void replicasOfSeveralFilesCountTogetherAgainstTheLimit(@TempDir Path dir) throws IOException {
    List<String> args = new java.util.ArrayList<>(List.of("advise", "--gpu", "L4"));
    for (String name : List.of("a", "b")) {
      Path f = dir.resolve(name + ".yaml");
      Files.writeString(f, """
          apiVersion: gpufleet.io/v1alpha1
          kind: WorkloadProfile
          metadata: {name: %s}
          spec:
            replicas: 1500
            request: {model: {parameters: 1B}}
            memory: 1Gi
            load: {rate: 1}
          """.formatted(name));
      args.addAll(List.of("-f", f.toString()));
    }
    CliRun run = CliRun.wide(args.toArray(String[]::new));
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("the workloads have 3000 replicas in all; advise takes at most 2000");
  }

  @Test
  void fileAndProfileFlagsTogetherAreRefused() {
    CliRun run = CliRun.wide("advise", "-f", example("l4-notebooks.yaml"), "--rate", "3");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).isEqualTo("gpufleet advise: --rate: give the workload by -f or by flags, not both\n");
  }
}
