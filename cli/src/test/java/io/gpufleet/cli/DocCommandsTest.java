package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs every gpufleet command shown in a fenced block of the README and of docs/ as a new user pastes
 * it, from the repository's root: it must exit 0 (or the exit code its block states, for a command
 * shown failing). Paths are read from the root as the shell would; what a command writes goes to a
 * temporary folder instead of the checkout. A command that cannot run here (it needs a GPU, a live
 * cluster, or runs for minutes) is listed below with the reason, and still must parse: its options
 * are checked by picocli.
 */
class DocCommandsTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /** A command in a doc: where it is, and its words after {@code gpufleet}. */
  record DocCommand(String file, int line, String text, List<String> args, int expectedExit,
      Optional<String> cannotRunHere) {
    String where() {
      return file + ":" + line;
    }
  }

  /** Subcommands that cannot run on a build machine, and why. */
  private static final Map<String, String> CANNOT_RUN_HERE = Map.of(
      "probe", "reads the local NVIDIA GPU through NVML (run on the device machine; ProbeCommandTest covers the parse)",
      "bench-sharing", "runs CUDA kernels on the local GPU",
      "serve", "serves a dashboard until stopped (ServeCommandTest starts and stops it)",
      "import", "reads a live cluster through a kubeconfig (ImportCommandTest runs it against a mock API server)");

  /** Single commands that take minutes, and what covers them at a smaller size. */
  private static final Set<String> TOO_SLOW_FOR_A_TEST = Set.of("--sweep");

  private static final Pattern FENCE = Pattern.compile("^\\s*```");
  private static final Pattern COMMAND = Pattern.compile("^\\s*(?:\\$\\s+)?(?:\\./)?gpufleet\\s+(.*)$");
  /** A block that shows a failing run says so in a comment on the command's line: {@code # exits 1}. */
  private static final Pattern EXITS = Pattern.compile("#.*\\bexits? (\\d)\\b");

  @TempDir Path scratch;

  static List<DocCommand> commands() {
    List<Path> docs = new ArrayList<>();
    docs.add(ROOT.resolve("README.md"));
    try (Stream<Path> s = Files.list(ROOT.resolve("docs"))) {
      s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<DocCommand> out = new ArrayList<>();
    for (Path doc : docs) {
      List<String> lines;
      try {
        lines = Files.readAllLines(doc, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      // A block that shows a prompt ("$ ") shows output too: only its prompted lines are commands.
      List<int[]> blocks = new ArrayList<>();
      int open = -1;
      for (int i = 0; i < lines.size(); i++) {
        if (FENCE.matcher(lines.get(i)).find()) {
          if (open < 0) {
            open = i;
          } else {
            blocks.add(new int[] {open + 1, i});
            open = -1;
          }
        }
      }
      for (int[] block : blocks) {
        boolean prompted = lines.subList(block[0], block[1]).stream().anyMatch(l -> l.stripLeading().startsWith("$ "));
        Set<String> unavailable = new java.util.HashSet<>();
        for (int i = block[0]; i < block[1]; i++) {
          String line = lines.get(i);
          Matcher m = COMMAND.matcher(line);
          if (!m.matches() || prompted && !line.stripLeading().startsWith("$ ") || m.group(1).matches("^[\\w-]+:.*")) {
            continue;
          }
          int first = i;
          StringBuilder text = new StringBuilder(m.group(1));
          while (text.toString().stripTrailing().endsWith("\\") && i + 1 < block[1]) {
            String t = text.toString().stripTrailing();
            text.setLength(0);
            text.append(t, 0, t.length() - 1).append(' ').append(lines.get(++i).strip());
          }
          Matcher exits = EXITS.matcher(text);
          int expected = exits.find() ? Integer.parseInt(exits.group(1)) : 0;
          List<String> args = words(commandPart(text.toString()));
          String name = ROOT.relativize(doc).toString();
          Optional<String> cannot = cannotRunHere(args).or(() -> args.stream().filter(unavailable::contains).findFirst()
              .map(f -> "reads " + f + ", which a command above it in the same block writes and which cannot run here"));
          if (cannot.isPresent()) {
            unavailable.addAll(outputsOf(args));
          }
          out.add(new DocCommand(name, first + 1, text.toString().strip(), args, expected, cannot));
        }
      }
    }
    return out;
  }

  /** Why a command cannot run on a build machine, if it cannot. */
  static Optional<String> cannotRunHere(List<String> args) {
    String sub = args.isEmpty() ? "" : args.getFirst();
    return Optional.ofNullable(CANNOT_RUN_HERE.get(sub))
        .or(() -> args.contains("--kubeconfig") ? Optional.of("reads a live cluster through a kubeconfig") : Optional.empty())
        .or(() -> args.stream().filter(TOO_SLOW_FOR_A_TEST::contains).findFirst()
            .map(f -> "takes minutes on all cores (" + f + ")"));
  }

  /** The files a command writes (the values of its output options). */
  static List<String> outputsOf(List<String> args) {
    List<String> out = new ArrayList<>();
    for (int i = 1; i < args.size(); i++) {
      String previous = args.get(i - 1);
      if (OUTPUT_OPTIONS.contains(previous) || previous.equals("-o") && !FORMATS.contains(args.get(i))) {
        out.add(args.get(i));
      }
    }
    return out;
  }

  /** The command before a comment, a pipe or a redirection, which the shell would act on itself. */
  static String commandPart(String text) {
    StringBuilder b = new StringBuilder();
    char quote = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '#' && (i == 0 || Character.isWhitespace(text.charAt(i - 1)))
          || c == '|' || c == '>' || c == ';' || c == '&') {
        break;
      }
      b.append(c);
    }
    return b.toString().strip();
  }

  /** Shell words: blanks separate, quotes group and are removed. */
  static List<String> words(String s) {
    List<String> out = new ArrayList<>();
    StringBuilder w = new StringBuilder();
    boolean any = false;
    char quote = 0;
    for (char c : s.toCharArray()) {
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          w.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        any = true;
      } else if (Character.isWhitespace(c)) {
        if (any || !w.isEmpty()) {
          out.add(w.toString());
        }
        w.setLength(0);
        any = false;
      } else {
        w.append(c);
      }
    }
    if (any || !w.isEmpty()) {
      out.add(w.toString());
    }
    return out;
  }

  private static final Set<String> OUTPUT_OPTIONS = Set.of("--out", "--json-file", "--output", "--sarif-file");
  private static final Set<String> FORMATS = Set.of("table", "json", "yaml", "wide", "html", "sarif", "text", "csv",
      "markdown", "name", "-");

  /** The arguments as run from the root: paths read from it, outputs written to scratch, globs expanded. */
  List<String> fromRoot(List<String> args) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      String previous = i == 0 ? "" : args.get(i - 1);
      boolean output = OUTPUT_OPTIONS.contains(previous) || previous.equals("-o") && !FORMATS.contains(a);
      if (output) {
        out.add(scratch.resolve(a.replace('/', '_')).toString());
      } else if (a.contains("*")) {
        out.addAll(glob(a));
      } else if (a.startsWith("~/")) {
        out.add(a);
      } else if (!a.startsWith("-") && a.contains("/") || a.endsWith(".yaml") || a.endsWith(".json")) {
        out.add(ROOT.resolve(a).toString());
      } else {
        out.add(a);
      }
    }
    // simulate and replay write to out/... under the working folder when no --out is given: that
    // would be the module's folder here, so such a run writes to scratch as well.
    boolean writesByDefault = !args.isEmpty() && (args.getFirst().equals("simulate") || args.getFirst().equals("replay"));
    if (writesByDefault && args.stream().noneMatch(a -> a.equals("--out") || a.startsWith("--out="))) {
      out.add("--out=" + scratch.resolve("default-out"));
    }
    return out;
  }

  private static List<String> glob(String pattern) {
    PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
    Path base = ROOT.resolve(pattern.substring(0, Math.max(0, pattern.lastIndexOf('/', pattern.indexOf('*')))));
    try (Stream<Path> s = Files.walk(base, 1)) {
      return s.filter(p -> m.matches(ROOT.relativize(p))).map(Path::toString).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @TestFactory
  Stream<DynamicTest> everyCommandInTheDocsRunsAsWritten() {
    return commands().stream().map(c -> DynamicTest.dynamicTest(c.where() + ": gpufleet " + c.text(), () -> {
      if (c.cannotRunHere().isPresent()) {
        // It cannot run here, but every option it shows must exist.
        var parsed = Main.commandLine().parseArgs(fromRoot(c.args()).toArray(String[]::new));
        assertThat(parsed.errors()).as(c.where()).isEmpty();
        return;
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int code = Main.run(out, err, fromRoot(c.args()).toArray(String[]::new));
      assertThat(code).as("%s: gpufleet %s%nstderr:%n%s", c.where(), c.text(),
          tail(err.toString(StandardCharsets.UTF_8))).isEqualTo(c.expectedExit());
    }));
  }

  private static String tail(String s) {
    return s.length() > 3000 ? s.substring(s.length() - 3000) : s;
  }

  @Test
  void theDocsShowCommandsAtAll() {
    // A change to how commands are found must not make this test vacuous.
    List<DocCommand> all = commands();
    assertThat(all).hasSizeGreaterThan(60).anySatisfy(c -> assertThat(c.file()).isEqualTo("README.md"));
    // Most run for real; only a few are parsed alone.
    assertThat(all.stream().filter(c -> c.cannotRunHere().isEmpty()).count()).isGreaterThan(all.size() * 3 / 4);
  }

  @Test
  void commandsAreCutWhereTheShellTakesOver() {
    assertThat(commandPart("schedule -f a.yaml | head -5")).isEqualTo("schedule -f a.yaml");
    assertThat(commandPart("probe -o yaml > labels.yaml")).isEqualTo("probe -o yaml");
    assertThat(commandPart("advise --gpu any   # every GPU")).isEqualTo("advise --gpu any");
    assertThat(commandPart("lint --name 'a # b'")).isEqualTo("lint --name 'a # b'");
    assertThat(words("advise --slo-p99 \"50 ms\" -f x.yaml")).containsExactly("advise", "--slo-p99", "50 ms", "-f",
        "x.yaml");
  }
}
