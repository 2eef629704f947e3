package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import picocli.CommandLine;

/**
 * Every command's and subcommand's {@code --help} renders: exit 0, a usage naming the command, and
 * nothing on stderr. picocli formats help texts with {@code String.format}, so a bare {@code %} makes
 * it print a warning to {@code System.err} (not to the command line's error writer), which is why
 * that stream is captured too.
 */
class HelpTextTest {

  @TestFactory
  Stream<DynamicTest> everyCommandsHelpRendersWithoutWarnings() {
    List<List<String>> paths = new ArrayList<>();
    walk(Main.commandLine(), List.of(), paths);
    assertThat(paths).as("the walk reaches subcommands of subcommands")
        .contains(List.of("replay", "openb"), List.of("node", "describe"));
    return paths.stream().map(path -> DynamicTest.dynamicTest(
        String.join(" ", path.isEmpty() ? List.of("gpufleet") : path) + " --help", () -> checkHelp(path)));
  }

  /** Every command path of the tree below {@code cl}, parents before their subcommands. */
  static void walk(CommandLine cl, List<String> path, List<List<String>> into) {
    into.add(path);
    cl.getSubcommands().forEach((name, sub) -> {
      List<String> subPath = new ArrayList<>(path);
      subPath.add(name);
      walk(sub, List.copyOf(subPath), into);
    });
  }

  private static void checkHelp(List<String> path) {
    List<String> args = new ArrayList<>(path);
    args.add("--help");
    PrintStream systemErr = System.err;
    ByteArrayOutputStream stray = new ByteArrayOutputStream();
    CliRun run;
    try {
      System.setErr(new PrintStream(stray, true, StandardCharsets.UTF_8));
      run = CliRun.of(args.toArray(String[]::new));
    } finally {
      System.setErr(systemErr);
    }
    String command = String.join(" ", Stream.concat(Stream.of("gpufleet"), path.stream()).toList());
    assertThat(run.exitCode()).as(command + " --help exit code").isZero();
    assertThat(run.out()).as("usage of " + command).contains("Usage: " + command);
    assertThat(run.out().lines().count()).as("usage of " + command + " has more than its synopsis")
        .isGreaterThan(2);
    assertThat(run.out()).as("an escaped %% renders as one %").doesNotContain("%%");
    assertThat(run.err()).as(command + " --help, command line stderr").isEmpty();
    assertThat(stray.toString(StandardCharsets.UTF_8)).as(command + " --help, System.err").isEmpty();
  }
}
