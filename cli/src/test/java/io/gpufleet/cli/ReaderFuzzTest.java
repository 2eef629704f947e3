package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.gpufleet.manifest.openb.OpenbFormatException;
import io.gpufleet.manifest.openb.OpenbPodList;
import io.gpufleet.testing.property.Gen;
import io.gpufleet.testing.property.Property;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

  /** The seed the fuzz runs are drawn from. */
  private static final long SEED = 20261130L;

  /** Every run's input and output lie under it, so JUnit removes them after the class. */
  @TempDir
  static Path runs;

  static Gen<List<Edit>> edits() {
    Gen<Edit> edit = Gen.combine(Gen.ints(0, 3), Gen.doubles(0, 1), Gen.doubles(0, 1), Gen.ints(0, TOKENS.size() - 1),
        Edit::new);
    return edit.list(1, 4);
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

  /**
   * Runs {@code command} on each sample's edited {@code file}, then prints how many runs ended with
   * each exit code (refused, answered or flagged).
   */
  private static void endsCleanly(String file, int tries, String... command) {
    Map<Integer, Integer> exits = new TreeMap<>();
    Property.check(SEED, tries, edits(), edits -> exits.merge(endsCleanly(file, edits, command), 1, Integer::sum));
    System.out.println(String.join(" ", command) + ": runs per exit code " + exits);
  }

  private static int endsCleanly(String file, List<Edit> edits, String... command) throws IOException {
    Path dir = Files.createTempDirectory(runs, "run");
    Path input = Files.writeString(dir.resolve("input.yaml"), mutate(file, edits), StandardCharsets.UTF_8);
    List<String> args = new ArrayList<>();
    for (String a : command) {
      args.add(a.replace("INPUT", input.toString()).replace("OUT", dir.resolve("out").toString()));
    }
    CliRun run = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> CliRun.of(args.toArray(String[]::new)));
    assertThat(run.exitCode()).as(run.err()).isIn(0, 1, 2);
    assertThat(run.err()).doesNotContain("\tat ", "Exception", "tools.jackson", "org.snakeyaml", "StreamReadConstraints");
    if (run.exitCode() == 2) {
      assertThat(run.err()).isNotBlank();
    }
    return run.exitCode();
  }

  @Test
  void schedule() {
    endsCleanly("scheduling/gpu-fleet.yaml", 120, "schedule", "-f", "INPUT");
  }

  @Test
  void nodeDescribe() {
    endsCleanly("gpu/node-h100-mig-mixed.yaml", 80, "node", "describe", "-f", "INPUT");
  }

  @Test
  void smi() {
    endsCleanly("gpu/cluster-mixed.yaml", 80, "smi", "-f", "INPUT");
  }

  @Test
  void advise() {
    endsCleanly("advise/a10g-inference.yaml", 60, "advise", "-f", "INPUT");
  }

  @Test
  void simulate() {
    endsCleanly("scenarios/node-expiry.yaml", 60, "simulate", "INPUT", "--out", "OUT", "-q");
  }

  /** Issue 33 item 8: a scheduler configuration, read strictly with its plugin names checked. */
  @Test
  void schedulerConfiguration() {
    endsCleanly("scheduling/bin-packing-scheduler.yaml", 60, "schedule", "-f",
        EXAMPLES.resolve("scheduling/gpu-fleet.yaml").toString(), "--config", "INPUT");
  }

  /** Issue 33 item 8: DRA claims and their CEL selectors, with the cost limits. */
  @Test
  void draSelectors() {
    endsCleanly("dra/first-available.yaml", 60, "schedule", "-f", "INPUT");
  }

  /** Issue 33 item 8: Karpenter's NodePool and EC2NodeClass, validated as their CRDs. */
  @Test
  void karpenterCrds() {
    endsCleanly("scenarios/inference-spot.yaml", 40, "simulate", "INPUT", "--out", "OUT", "-q");
  }

  @Test
  void lint() {
    endsCleanly("scheduling/gpu-taint.yaml", 60, "lint", "-f", "INPUT");
  }

  @Test
  void openbPodList() {
    Property.check(SEED, 200, edits(), edits -> {
      String csv = mutate("../data/openb/openb_pod_list_default.csv", edits).lines().limit(60)
          .reduce("", (a, b) -> a + b + "\n");
      try {
        assertThat(OpenbPodList.read("pods.csv", new StringReader(csv))).isNotNull();
      } catch (OpenbFormatException e) {
        assertThat(e.getMessage()).startsWith("pods.csv:");
      }
    });
  }
}
