package io.gpufleet.cli;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every command's {@code --help}, and the usage errors a mistyped call meets, byte for byte as the
 * {@code gpufleet} script prints them (stdout, stderr, exit code), against a reviewed copy
 * ({@code -Dgolden.update=true} rewrites it). Start-up work on the command line parser (how picocli
 * is built and loaded, how the command tree is put together) must leave these bytes alone.
 */
class HelpGoldenTest {

  @Test
  void everyHelpAndUsageErrorMatchesItsGoldenFile() {
    List<List<String>> calls = new ArrayList<>();
    List<List<String>> paths = new ArrayList<>();
    HelpTextTest.walk(Main.commandLine(), List.of(), paths);
    for (List<String> path : paths) {
      calls.add(with(path, "--help"));
    }
    calls.add(List.of());
    calls.add(List.of("--version"));
    calls.add(List.of("-V"));
    calls.add(List.of("help"));
    calls.add(List.of("help", "schedule"));
    calls.add(List.of("help", "no-such-command"));
    calls.add(List.of("no-such-command"));
    calls.add(List.of("--no-such-option"));
    calls.add(List.of("node"));
    calls.add(List.of("replay"));
    for (List<String> path : paths) {
      if (!path.isEmpty()) {
        calls.add(with(path, "--no-such-option"));
      }
    }
    calls.add(List.of("schedule"));
    calls.add(List.of("schedule", "-f"));
    calls.add(List.of("schedule", "-f", "missing.yaml", "-o", "xml"));
    calls.add(List.of("simulate"));
    calls.add(List.of("replay", "openb", "--policy", "no-such-policy"));
    calls.add(List.of("replay", "openb", "--seed", "not-a-number"));
    calls.add(List.of("lint", "--fail-on", "sometimes"));

    StringBuilder all = new StringBuilder();
    for (List<String> call : calls) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int code = Main.run(out, err, call.toArray(String[]::new));
      all.append("$ gpufleet");
      call.forEach(a -> all.append(' ').append(a));
      all.append("\n--- exit ").append(code).append('\n');
      all.append("--- stdout\n").append(out.toString(StandardCharsets.UTF_8));
      all.append("--- stderr\n").append(err.toString(StandardCharsets.UTF_8));
      all.append('\n');
    }
    io.gpufleet.report.Golden.check("help.txt", all.toString());
  }

  private static List<String> with(List<String> path, String arg) {
    List<String> call = new ArrayList<>(path);
    call.add(arg);
    return call;
  }
}
