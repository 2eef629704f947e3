package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch (several scenarios, several seeds) on several threads prints and writes, run by run in the
 * order given, exactly what each run prints and writes alone; bad batch options are clear errors.
 */
class SimulateBatchTest {

  private static final Path EXAMPLES = Path.of("..", "examples", "scenarios");
  private static final List<String> FILES = List.of("inference-spot.yaml", "consolidation-when-empty.yaml");
  private static final List<String> NAMES = List.of("inference-spot", "consolidation-when-empty");
  private static final List<String> RESULTS = List.of("result.json", "timeseries.csv", "pods.csv", "report.html",
      "events.jsonl");

  @Test
  void aBatchOnThreadsIsTheRunsOneByOneInOrder(@TempDir Path batch, @TempDir Path single) throws IOException {
    CliRun all = CliRun.wide("simulate", EXAMPLES.resolve(FILES.get(0)).toString(),
        EXAMPLES.resolve(FILES.get(1)).toString(), "--seeds", "3..4", "--threads", "3", "--out", batch.toString());
    assertThat(all.exitCode()).as(all.err()).isZero();
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < FILES.size(); i++) {
      for (long seed = 3; seed <= 4; seed++) {
        // Alone, a scenario with one seed writes to <out>/seed-<n>.
        CliRun one = CliRun.wide("simulate", EXAMPLES.resolve(FILES.get(i)).toString(), "--seeds", Long.toString(seed),
            "--out", single.resolve(NAMES.get(i)).toString());
        assertThat(one.exitCode()).as(one.err()).isZero();
        expected.append(one.out());
        Path a = batch.resolve(NAMES.get(i)).resolve("seed-" + seed);
        Path b = single.resolve(NAMES.get(i)).resolve("seed-" + seed);
        for (String f : RESULTS) {
          assertThat(Files.readString(a.resolve(f))).as(a.resolve(f).toString()).isEqualTo(Files.readString(b.resolve(f)));
        }
        assertThat(Files.readString(a.resolve("result.json"))).contains("\"seed\" : " + seed + ",");
      }
    }
    assertThat(all.out()).isEqualTo(expected.toString().replace(single.toString(), batch.toString()));
    assertThat(all.err()).contains("simulate: 4 runs on 3 threads", "every expectation passed");
  }

  /** The docs' batch command, {@code simulate examples/scenarios/*.yaml --out out/all -q}, as the shell expands it. */
  @Test
  void everyScenarioOfTheExamplesFolderRunsAsOneBatch(@TempDir Path out) throws IOException {
    List<String> args = new java.util.ArrayList<>(List.of("simulate"));
    try (var files = Files.list(EXAMPLES)) {
      files.filter(f -> f.toString().endsWith(".yaml")).map(Path::toString).sorted().forEach(args::add);
    }
    args.addAll(List.of("--out", out.toString(), "-q"));
    CliRun run = CliRun.of(args.toArray(String[]::new));
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.err()).contains("every expectation passed");
  }

  /** A file of manifests given as a scenario: the error says what it holds and where it belongs. */
  @Test
  void aSharedManifestFileIsNamedAsSuchNotCountedAsScenarios(@TempDir Path out) {
    CliRun run = CliRun.of("simulate", EXAMPLES.resolve("clusters/consolidation-cluster.yaml").toString(),
        "--out", out.toString(), "-q");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("expected one Scenario document, found 3 documents (EC2NodeClass, Node, "
        + "Deployment) and no Scenario: a file of manifests; give it with -f, or list it under a scenario's "
        + "spec.cluster").doesNotContain("Exception");
  }

  @Test
  void oneThreadAndManyGiveTheSameBytes(@TempDir Path one, @TempDir Path many) throws IOException {
    String file = EXAMPLES.resolve(FILES.get(1)).toString();
    CliRun a = CliRun.wide("simulate", file, "--seeds", "1,5,9", "--threads", "1", "--out", one.toString(), "-q");
    CliRun b = CliRun.wide("simulate", file, "--seeds", "1,5,9", "--threads", "3", "--out", many.toString(), "-q");
    assertThat(a.exitCode()).isZero();
    assertThat(b.out()).isEqualTo(a.out().replace(one.toString(), many.toString()));
    for (String seed : List.of("seed-1", "seed-5", "seed-9")) {
      for (String f : RESULTS) {
        assertThat(Files.readString(many.resolve(seed).resolve(f))).as(seed + "/" + f)
            .isEqualTo(Files.readString(one.resolve(seed).resolve(f)));
      }
    }
    // Seeds in the order given, each run's summary once.
    assertThat(a.out().indexOf("seed-1")).isLessThan(a.out().indexOf("seed-5"));
    assertThat(a.out().indexOf("seed-5")).isLessThan(a.out().indexOf("seed-9"));
  }

  @Test
  void badBatchOptionsAreClearErrors(@TempDir Path out) {
    String file = EXAMPLES.resolve(FILES.get(1)).toString();
    CliRun threads = CliRun.wide("simulate", file, "--seeds", "1..2", "--threads", "0", "--out", out.toString());
    assertThat(threads.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(threads.err()).isEqualTo("gpufleet simulate: --threads must be at least 1, got 0\n");
    CliRun seeds = CliRun.wide("simulate", file, "--seeds", "x", "--out", out.toString());
    assertThat(seeds.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(seeds.err()).isEqualTo("gpufleet simulate: --seeds: a seed is an integer, got \"x\"\n");
    CliRun twice = CliRun.wide("simulate", file, file, "--out", out.toString());
    assertThat(twice.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(twice.err()).contains("are both named \"consolidation-when-empty\"; their results would share");
    CliRun compared = CliRun.wide("simulate", file, "--seeds", "1..2", "--compare", file, "--out", out.toString());
    assertThat(compared.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(compared.err()).isEqualTo(
        "gpufleet simulate: --compare compares one run with another: give one SCENARIO file and no --seeds\n");
    assertThat(out).isEmptyDirectory();
  }
}
