package io.gpufleet.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TimeZone;

/**
 * Runs every gpufleet command, each with and without {@code -o json} where it has one, in the
 * working directory, through the same entry as the {@code gpufleet} script. Each
 * command's stdout, stderr and exit code go to {@code NN-name.out}, {@code .err} and {@code .code};
 * the files the commands write land beside them. {@link OutputDeterminismTest} starts this in JVMs of
 * different time zones and locales and compares the bytes.
 */
final class EveryCommand {
  private EveryCommand() {}

  /** One command line; {@code wallClockOnStderr} where stderr reports elapsed time by design. */
  record Run(String name, int exitCode, boolean wallClockOnStderr, List<String> args) {}

  /** The runs, on the repository's examples and an openb trace in {@code openbData}. */
  static List<Run> runs(Path root, Path openbData) {
    String ex = root.resolve("examples").toString();
    String openb = openbData.toString();
    List<Run> r = new ArrayList<>();
    r.add(new Run("version", 0, false, List.of("--version")));
    r.add(new Run("help", 0, false, List.of("--help")));
    r.add(new Run("lab", 0, false, List.of("lab", "--explain", "--report", "lab/report.html")));
    r.add(new Run("simulate-spot", 0, false, List.of("simulate", ex + "/scenarios/inference-spot.yaml", "--explain",
        "--out", "simulate-spot")));
    r.add(new Run("simulate-mig", 0, false, List.of("simulate", ex + "/scenarios/mig-multi-tenant.yaml", "-q",
        "--out", "simulate-mig")));
    r.add(new Run("schedule", 0, false, List.of("schedule", "-f", ex + "/scheduling/gpu-fleet.yaml", "--explain")));
    r.add(new Run("schedule-json", 0, false, List.of("schedule", "-f", ex + "/scheduling/gpu-fleet.yaml", "--config",
        ex + "/scheduling/bin-packing-scheduler.yaml", "-o", "json")));
    r.add(new Run("schedule-pending", 0, false, List.of("schedule", "-f", ex + "/scheduling/gpu-taint.yaml")));
    r.add(new Run("schedule-missing-file", ExitCodes.BAD_INPUT, false, List.of("schedule", "-f", "missing.yaml")));
    r.add(new Run("node-describe", 0, false, List.of("node", "describe", "-f", ex + "/gpu/node-h100-mig-mixed.yaml")));
    r.add(new Run("node-describe-mig-refused", 0, false, List.of("node", "describe", "-f",
        ex + "/gpu/node-a10g-mig.yaml")));
    r.add(new Run("smi", 0, false, List.of("smi", "-f", ex + "/gpu/cluster-mixed.yaml")));
    r.add(new Run("replay-openb", 0, false, List.of("replay", "openb", "--data", openb, "--out", "replay")));
    r.add(new Run("replay-openb-sweep", 0, true, List.of("replay", "openb", "--data", openb, "--sweep",
        "--policies", "fgd", "--variants", "default", "--seeds", "42", "--threads", "1", "--out", "sweep")));
    r.add(new Run("advise", 0, false, List.of("advise", "-f", ex + "/advise/a10g-inference.yaml")));
    r.add(new Run("advise-json", 0, false, List.of("advise", "-f", ex + "/advise/a10g-inference.yaml", "-o", "json")));
    r.add(new Run("advise-html", 0, false, List.of("advise", "-f", ex + "/advise/l4-notebooks.yaml", "-o", "html",
        "--out", "advise/l4.html")));
    r.add(new Run("advise-any-json", 0, false, List.of("advise", "-f", ex + "/advise/a10g-inference.yaml", "--gpu",
        "any", "-o", "json")));
    // Lint over several rules' triggers at once, so findings of many rules, files and objects are ordered.
    List<String> lint = new ArrayList<>(List.of("lint"));
    for (String rule : List.of("mig-config-without-mig", "inference-pool-consolidation", "mps-memory-per-client",
        "gpu-request-equals-limit")) {
      lint.addAll(List.of("-f", ex + "/lint/" + rule + "/trigger.yaml"));
    }
    r.add(new Run("lint", 1, false, lint));
    r.add(new Run("lint-json", 1, false, concat(lint, "-o", "json", "--fail-on", "warning")));
    r.add(new Run("lint-sarif", 1, false, concat(lint, "-o", "sarif")));
    return r;
  }

  private static List<String> concat(List<String> head, String... tail) {
    List<String> out = new ArrayList<>(head);
    out.addAll(List.of(tail));
    return out;
  }

  static String fileName(int index, Run run) {
    return String.format(Locale.ROOT, "%02d-%s", index, run.name());
  }

  /**
   * args[0]: the repository root, args[1]: the openb trace's folder. Each command runs through {@link Main#execute}, the script's entry,
   * with {@code System.out} and {@code System.err} going to files in the platform's stdout encoding,
   * as they would on a terminal or pipe of this locale. Prints the JVM's time zone, locale and
   * encoding, for the test to check that the surroundings really differed.
   */
  public static void main(String[] args) throws IOException {
    Path root = Path.of(args[0]);
    Path openb = Path.of(args[1]);
    PrintStream stdout = System.out;
    PrintStream stderr = System.err;
    Charset platform = Charset.forName(System.getProperty("stdout.encoding", System.getProperty("native.encoding")));
    List<Run> runs = runs(root, openb);
    for (int i = 0; i < runs.size(); i++) {
      Run run = runs.get(i);
      String name = fileName(i, run);
      int code;
      long started = System.nanoTime();
      try (PrintStream out = new PrintStream(Files.newOutputStream(Path.of(name + ".out")), true, platform);
          PrintStream err = new PrintStream(Files.newOutputStream(Path.of(name + ".err")), true, platform)) {
        System.setOut(out);
        System.setErr(err);
        code = new Main().execute(run.args().toArray(String[]::new));
      } finally {
        System.setOut(stdout);
        System.setErr(stderr);
      }
      Files.writeString(Path.of(name + ".code"), code + "\n");
      stderr.printf(Locale.ROOT, "%s: %d ms%n", name, (System.nanoTime() - started) / 1_000_000);
    }
    stdout.println(TimeZone.getDefault().getID() + " " + Locale.getDefault().toLanguageTag() + " " + platform.name()
        + " " + Charset.defaultCharset().name());
  }
}
