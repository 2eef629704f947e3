package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ReplayCommandTest {

  @TempDir Path dir;

  private record Result(int code, String out, String err) {}

  private static Result gpufleet(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = Main.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int code = cl.execute(args);
    return new Result(code, out.toString(), err.toString());
  }

  /** A tiny trace: six nodes and a default pod list shaped like openb. */
  private Path tinyTrace() throws IOException {
    Path data = dir.resolve("openb");
    Files.createDirectories(data);
    Files.writeString(data.resolve("openb_node_list_gpu_node.csv"), """
        sn,cpu_milli,memory_mib,gpu,model
        n0,96000,393216,8,G2
        n1,96000,393216,8,G2
        n2,104000,524288,2,T4
        n3,104000,524288,2,T4
        n4,16000,122880,2,P100
        n5,16000,122880,2,P100
        """);
    List<String> rows = new ArrayList<>();
    rows.add("name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time");
    int[][] shapes = {{12000, 1, 1000}, {3000, 1, 810}, {10000, 1, 470}, {16000, 0, 0}, {6000, 1, 320}, {24000, 2, 1000}};
    for (int i = 0; i < 24; i++) {
      int[] s = shapes[i % shapes.length];
      String spec = i % 7 == 3 && s[1] > 0 ? "T4|P100" : "";
      rows.add(String.format("openb-pod-%04d,%d,8192,%d,%d,%s,LS,Running,%d,,%d", i, s[0], s[1], s[2], spec, i, i));
    }
    Files.write(data.resolve("openb_pod_list_default.csv"), rows);
    return data;
  }

  private static void assertOneLineError(Result r, String start) {
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith(start).doesNotContain("Exception", "\tat ");
    assertThat(r.err().lines()).hasSize(1);
  }

  @Test
  void unknownPolicyOrVariantIsOneLineAndExitCode2() throws IOException {
    Path data = tinyTrace();
    assertOneLineError(gpufleet("replay", "openb", "--data", data.toString(), "--policy", "tetris"),
        "gpufleet: unknown policy \"tetris\"; known: random, dotproduct,");
    assertOneLineError(gpufleet("replay", "openb", "--data", data.toString(), "--pods", "cpu999"),
        "gpufleet: unknown openb variant \"cpu999\"");
    assertOneLineError(gpufleet("replay", "openb", "--data", data.toString(), "--seeds", "51..42"),
        "gpufleet: --seeds 51..42: expected a..b");
    assertOneLineError(gpufleet("replay", "openb", "--data", data.toString(), "--seed", "x"),
        "gpufleet: a seed is an integer, got \"x\"");
  }

  @Test
  void missingOrMalformedTraceFilesAreOneLineAndExitCode2() throws IOException {
    assertOneLineError(gpufleet("replay", "openb", "--data", dir.resolve("nowhere").toString()),
        "gpufleet: --data " + dir.resolve("nowhere") + " does not hold openb_node_list_gpu_node.csv");
    Path data = tinyTrace();
    assertOneLineError(gpufleet("replay", "openb", "--data", data.toString(), "--pods", "cpu050"),
        "gpufleet: no such file: " + data.resolve("openb_pod_list_cpu050.csv"));
    Path pods = data.resolve("openb_pod_list_default.csv");
    List<String> lines = new ArrayList<>(Files.readAllLines(pods));
    lines.set(2, "openb-pod-0001,3000,8192,1,eight-ten,,LS,Running,1,,1");
    Files.write(pods, lines);
    assertOneLineError(gpufleet("replay", "openb", "--data", data.toString()),
        "gpufleet: openb_pod_list_default.csv:3: gpu_milli: expected an integer 0..1000, found \"eight-ten\"");
    Path notADirectory = Files.writeString(dir.resolve("file"), "x");
    Path good = tinyTrace();
    assertOneLineError(gpufleet("replay", "openb", "--data", good.toString(), "--out", notADirectory.toString()),
        "gpufleet replay openb: cannot write into " + notADirectory + ": it is not a directory");
  }

  @Test
  void aPodListThatCannotReachTheTargetIsRefusedAtOnceNamingTheFile() throws IOException {
    Path data = tinyTrace();
    Path pods = data.resolve("openb_pod_list_default.csv");
    String header = Files.readAllLines(pods).getFirst();
    // CPU-only: cloning never adds GPU demand, so the tuning loop used to run until memory ran out.
    Files.write(pods, List.of(header, "p0,1000,1024,0,0,,LS,Running,0,,0", "p1,2000,1024,0,0,,LS,Running,0,,0"));
    assertOneLineError(gpufleet("replay", "openb", "--data", data.toString()),
        "gpufleet: " + pods + ": no pod requests a GPU (num_gpu is 0 on every row)");
    assertOneLineError(gpufleet("replay", "openb", "--data", data.toString(), "--seeds", "1..2"),
        "gpufleet: " + pods + ": no pod requests a GPU");
    // 1 milli-GPU per pod: 31,200 milli-GPU of target (24 cards x 1000 x 130%) would take ~31,200 arrivals: fine.
    // A header-only list holds nothing to clone.
    Files.write(pods, List.of(header));
    assertOneLineError(gpufleet("replay", "openb", "--data", data.toString()),
        "gpufleet: " + pods + ": the pod list holds no pods");
  }

  @Test
  void oneRunPrintsASummaryAndWritesTheSameCurveForTheSameSeed() throws IOException {
    Path data = tinyTrace();
    Result first = gpufleet("replay", "openb", "--data", data.toString(), "--policy", "FGD", "--seed", "7",
        "--out", dir.resolve("a").toString());
    Result second = gpufleet("replay", "openb", "--data", data.toString(), "--policy", "fgd", "--seed", "7",
        "--out", dir.resolve("b").toString());
    assertThat(first.code()).isZero();
    assertThat(first.out()).contains("openb default under FGD, seed 7", "at 130% arrived");
    for (String file : List.of("openb-default-fgd-seed7.csv", "openb-default-fgd-seed7-grid.csv")) {
      assertThat(Files.readAllBytes(dir.resolve("a").resolve(file))).isEqualTo(Files.readAllBytes(dir.resolve("b").resolve(file)));
    }
    assertThat(Files.readAllLines(dir.resolve("a/openb-default-fgd-seed7.csv")).getFirst()).startsWith("index,pod,node,");
  }

  @Test
  void aSweepWritesTheSameFilesWhateverTheThreadCount() throws IOException {
    Path data = tinyTrace();
    Result one = gpufleet("replay", "openb", "--data", data.toString(), "--sweep", "--variants", "default",
        "--policies", "bestfit,fgd,fgd-cpu", "--seeds", "1..4", "--threads", "1", "--out", dir.resolve("one").toString());
    Result two = gpufleet("replay", "openb", "--data", data.toString(), "--sweep", "--variants", "default",
        "--policies", "bestfit,fgd,fgd-cpu", "--seeds", "1..4", "--threads", "2", "--out", dir.resolve("two").toString());
    assertThat(one.code()).isZero();
    assertThat(two.code()).isZero();
    assertThat(one.out()).contains("| variant | BestFit | FGD | FGD-CPU |", "12 replays (1 variants x 3 policies x 4 seeds)");
    assertThat(one.err()).as("no progress bar without a terminal; only the wall time, on stderr")
        .matches("on 1 thread in \\d+\\.\\d s of wall-clock time\\R");
    assertThat(one.out()).doesNotContain("wall-clock", "thread");
    for (String file : List.of("sweep.html", "sweep-runs.csv", "sweep-table.csv", "sweep-table.md")) {
      assertThat(Files.readAllBytes(dir.resolve("one").resolve(file))).as(file)
          .isEqualTo(Files.readAllBytes(dir.resolve("two").resolve(file)));
    }
  }

  @Test
  void helpListsTheReplayCommand() {
    Result r = gpufleet("--help");
    assertThat(r.out()).contains("replay");
    assertThat(gpufleet("replay", "openb", "--help").out()).contains("--policy", "--sweep", "--seeds", "--data", "--out");
  }
}
