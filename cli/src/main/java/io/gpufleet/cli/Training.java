package io.gpufleet.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The training run of the launcher's AOT cache (JEP 514's {@code -XX:AOTCacheOutput}): each command's
 * smallest example from the repository at {@code args[0]}, run in one JVM with its output discarded,
 * so the cache holds the classes and method profiles a real call needs. With a command named in
 * {@code args[1]}, only that command's first call runs: the JVM loads every class of a cache when it
 * starts, so a cache of one call's classes starts that call sooner than one of all of them (on the
 * device machine a small {@code schedule} took 198 ms with a cache trained on its help, table and
 * JSON calls, 159 ms with one trained on the table call alone, medians of 15). Its other calls load
 * what the cache lacks from the jars.
 * Files a command writes go to a temporary folder that is removed afterwards. Exit status 0
 * whatever the examples do.
 */
final class Training {
  private Training() {}

  public static void main(String[] args) throws IOException {
    Main.startUp();
    Path root = Path.of(args.length > 0 ? args[0] : ".");
    Path out = Files.createTempDirectory("gpufleet-training");
    try {
      List<List<String>> commands = commands(root, out);
      if (args.length > 1) {
        commands = only(args[1], commands);
      }
      for (List<String> command : commands) {
        Main.run(OutputStream.nullOutputStream(), OutputStream.nullOutputStream(), command.toArray(String[]::new));
      }
    } finally {
      try (Stream<Path> files = Files.walk(out)) {
        for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  /**
   * The first call of {@code command}, its smallest example; an error if it has none, as its cache
   * would hold nothing of it.
   */
  static List<List<String>> only(String command, List<List<String>> commands) {
    return commands.stream().filter(c -> c.getFirst().equals(command)).findFirst().map(List::of)
        .orElseThrow(() -> new IllegalArgumentException("no training example for the command " + command));
  }

  static List<List<String>> commands(Path root, Path out) {
    String ex = root.resolve("examples").toString();
    List<List<String>> c = new ArrayList<>();
    c.add(List.of("--version"));
    // A command's first call here is the one its own cache is trained on.
    c.add(List.of("schedule", "-f", ex + "/scheduling/gpu-fleet.yaml"));
    c.add(List.of("schedule", "--help"));
    c.add(List.of("schedule", "-f", ex + "/scheduling/gpu-fleet.yaml", "-o", "json", "--explain"));
    c.add(List.of("smi", "-f", ex + "/gpu/lab-time-slicing.yaml"));
    c.add(List.of("node", "describe", "-f", ex + "/gpu/lab-time-slicing.yaml"));
    c.add(List.of("lint", "-f", ex + "/lint/single-replica-on-spot/trigger.yaml"));
    c.add(List.of("advise", "-f", ex + "/advise/l4-notebooks.yaml"));
    c.add(List.of("simulate", ex + "/scenarios/inference-spot.yaml", "--out", out.resolve("sim").toString()));
    c.add(List.of("replay", "openb", "--policy", "fgd", "--seed", "42", "--out", out.resolve("openb").toString()));
    return c;
  }
}
