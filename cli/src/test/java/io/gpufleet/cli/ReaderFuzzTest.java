package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.gpufleet.manifest.openb.OpenbFormatException;
import io.gpufleet.manifest.openb.OpenbPodList;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Malformed input through every reader, as a hostile tester would write it: real example files
 * with hostile edits (YAML anchors, aliases and merge keys, tags, broken structure, huge or exotic
 * numbers, non-ASCII digits, deleted and repeated lines). Every run must end with exit 0 (a correct
 * answer), 1 (an expectation or finding) or 2 (the input refused), within a bound, never with a
 * stack trace or a library's class name. Seeds are fixed so CI runs the same edits every time; change
 * the seed locally to explore further.
 */
class ReaderFuzzTest {

  private static final Path EXAMPLES = Path.of("..", "examples");
  private static final List<String> TOKENS = List.of("*a", "&a ", "<<: *a", "{", "}", "[", "]", ": :", "\t", "-1",
      "1e400", "\u0661", "\"", "'", "---", "null", "~", "9999999999999999999", "0x10", "!!binary ", "? ", "- ",
      "\u0000", "\uFEFF", "a".repeat(5_000), "nvidia.com/gpu: 1.5", "apiVersion: v2", "kind: Nod", "%YAML 1.1",
      "metadata: {name: ../../x}", "replicas: 1000000", "wait: 9999999999999999999h");

  /** One edit of a text: delete a range, repeat a line, insert a hostile token, or replace a character. */
  record Edit(int kind, double at, double length, int token) {
    String apply(String text) {
      int n = text.length();
      int pos = (int) (at * n);
      int len = (int) (length * Math.min(200, n - pos));
      return switch (kind) {
        case 0 -> text.substring(0, pos) + text.substring(pos + len);
        case 1 -> {
          int start = text.lastIndexOf('\n', Math.max(0, pos - 1)) + 1;
          int end = text.indexOf('\n', pos);
          String line = text.substring(start, end < 0 ? n : end);
          yield text.substring(0, start) + line + "\n" + text.substring(start);
        }
        case 2 -> text.substring(0, pos) + TOKENS.get(token) + text.substring(pos);
        default -> pos < n ? text.substring(0, pos) + TOKENS.get(token).charAt(0) + text.substring(pos + 1) : text;
      };
    }
  }

  @Provide
  Arbitrary<List<Edit>> edits() {
    Arbitrary<Edit> edit = Combinators.combine(Arbitraries.integers().between(0, 3),
        Arbitraries.doubles().between(0, 1), Arbitraries.doubles().between(0, 1),
        Arbitraries.integers().between(0, TOKENS.size() - 1)).as(Edit::new);
    return edit.list().ofMinSize(1).ofMaxSize(4);
  }

  private static String mutate(String file, List<Edit> edits) {
    try {
      String text = Files.readString(EXAMPLES.resolve(file), StandardCharsets.UTF_8);
      for (Edit e : edits) {
        text = e.apply(text);
      }
      return text;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void endsCleanly(String file, List<Edit> edits, String... command) throws IOException {
    Path dir = Files.createTempDirectory("fuzz");
    Path input = Files.writeString(dir.resolve("input.yaml"), mutate(file, edits), StandardCharsets.UTF_8);
    List<String> args = new ArrayList<>();
    for (String a : command) {
      args.add(a.replace("INPUT", input.toString()).replace("OUT", dir.resolve("out").toString()));
    }
    CliRun run = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> CliRun.of(args.toArray(String[]::new)));
    // Printed after each property: how many edits were refused, answered or flagged.
    Statistics.collect("exit " + run.exitCode());
    assertThat(run.exitCode()).as(run.err()).isIn(0, 1, 2);
    assertThat(run.err()).doesNotContain("\tat ", "Exception", "tools.jackson", "org.snakeyaml", "StreamReadConstraints");
    if (run.exitCode() == 2) {
      assertThat(run.err()).isNotBlank();
    }
  }

  @Property(tries = 120, seed = "20261130")
  void schedule(@ForAll("edits") List<Edit> edits) throws IOException {
    endsCleanly("scheduling/gpu-fleet.yaml", edits, "schedule", "-f", "INPUT");
  }

  @Property(tries = 80, seed = "20261130")
  void nodeDescribe(@ForAll("edits") List<Edit> edits) throws IOException {
    endsCleanly("gpu/node-h100-mig-mixed.yaml", edits, "node", "describe", "-f", "INPUT");
  }

  @Property(tries = 80, seed = "20261130")
  void smi(@ForAll("edits") List<Edit> edits) throws IOException {
    endsCleanly("gpu/cluster-mixed.yaml", edits, "smi", "-f", "INPUT");
  }

  @Property(tries = 60, seed = "20261130")
  void advise(@ForAll("edits") List<Edit> edits) throws IOException {
    endsCleanly("advise/a10g-inference.yaml", edits, "advise", "-f", "INPUT");
  }

  @Property(tries = 60, seed = "20261130")
  void simulate(@ForAll("edits") List<Edit> edits) throws IOException {
    endsCleanly("scenarios/node-expiry.yaml", edits, "simulate", "INPUT", "--out", "OUT", "-q");
  }

  @Property(tries = 60, seed = "20261130")
  void lint(@ForAll("edits") List<Edit> edits) throws IOException {
    endsCleanly("scheduling/gpu-taint.yaml", edits, "lint", "-f", "INPUT");
  }

  @Property(tries = 200, seed = "20261130")
  void openbPodList(@ForAll("edits") List<Edit> edits) throws IOException {
    String csv = mutate("../data/openb/openb_pod_list_default.csv", edits).lines().limit(60)
        .reduce("", (a, b) -> a + b + "\n");
    try {
      assertThat(OpenbPodList.read("pods.csv", new StringReader(csv))).isNotNull();
    } catch (OpenbFormatException e) {
      assertThat(e.getMessage()).startsWith("pods.csv:");
    }
  }
}
