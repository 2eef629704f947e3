package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command, run in three separate JVMs that differ in time zone, locale and platform encoding,
 * prints and writes the same bytes: the stdout, stderr and exit code of each, and every file it
 * writes. Separate JVMs also differ in the hash seed that orders {@code Map.of} and {@code Set.of},
 * so an output that iterated one would show here.
 */
class OutputDeterminismTest {

  static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /** A JVM's surroundings: environment variables and system properties, as a user's shell would set them. */
  record Surroundings(String name, Map<String, String> env, List<String> jvmOptions) {}

  static final List<Surroundings> SURROUNDINGS = List.of(
      new Surroundings("utc-c", Map.of("TZ", "UTC", "LANG", "C"), List.of()),
      // LANG=de_DE.UTF-8 needs the locale installed to reach Java; the property reaches it everywhere.
      new Surroundings("kolkata-de", Map.of("TZ", "Asia/Kolkata", "LANG", "C.UTF-8"),
          List.of("-Duser.language=de", "-Duser.country=DE")),
      // Turkish lower-cases I to a dotless ı; Newfoundland is 3.5 hours behind UTC; COMPAT makes the
      // platform's ASCII the default charset, as before JDK 18.
      new Surroundings("stjohns-tr", Map.of("TZ", "America/St_Johns", "LANG", "C"),
          List.of("-Duser.language=tr", "-Duser.country=TR", "-Dfile.encoding=COMPAT")));

  /**
   * A slice of the repository's openb trace, its first GPU nodes and pods, so the replays take a
   * fraction of a second: the same code runs on fewer rows.
   */
  static Path openbSlice(Path dir) throws IOException {
    Path from = ROOT.resolve("data/openb");
    Path to = Files.createDirectories(dir.resolve("openb-slice"));
    for (var file : Map.of("openb_node_list_gpu_node.csv", 121, "openb_pod_list_default.csv", 801).entrySet()) {
      try (Stream<String> lines = Files.lines(from.resolve(file.getKey()))) {
        Files.write(to.resolve(file.getKey()), lines.limit(file.getValue()).toList());
      }
    }
    return to;
  }

  @Test
  void everyCommandGivesTheSameBytesInEveryTimeZoneLocaleAndRun(@TempDir Path dir) throws Exception {
    Path openb = openbSlice(dir);
    List<Process> processes = new ArrayList<>();
    for (Surroundings s : SURROUNDINGS) {
      Path cwd = Files.createDirectories(dir.resolve(s.name()));
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(s.jvmOptions());
      command.addAll(List.of("-cp", System.getProperty("java.class.path"), EveryCommand.class.getName(),
          ROOT.toString(), openb.toString()));
      ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile())
          .redirectOutput(dir.resolve(s.name() + ".jvm.out").toFile())
          .redirectError(dir.resolve(s.name() + ".jvm.err").toFile());
      pb.environment().keySet().removeIf(k -> k.startsWith("LC_") || k.equals("LANG") || k.equals("TZ")
          || k.equals("JAVA_TOOL_OPTIONS") || k.equals("JDK_JAVA_OPTIONS"));
      pb.environment().putAll(s.env());
      processes.add(pb.start());
    }
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < processes.size(); i++) {
      Process p = processes.get(i);
      String name = SURROUNDINGS.get(i).name();
      if (!p.waitFor(3, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        fail(name + ": did not finish within 3 minutes");
      }
      assertThat(p.exitValue()).as(name + ": " + Files.readString(dir.resolve(name + ".jvm.err"))).isZero();
      seen.add(Files.readString(dir.resolve(name + ".jvm.out")).strip());
    }
    // The JVMs really ran in different time zones, locales and platform encodings.
    assertThat(seen.stream().map(l -> l.split(" ")[0]).distinct()).as(seen.toString()).hasSize(3);
    assertThat(seen.stream().map(l -> l.split(" ")[1]).distinct()).as(seen.toString()).hasSize(3);
    assertThat(seen.stream().map(l -> l.split(" ")[2]).distinct()).as(seen.toString()).hasSize(2);
    assertThat(seen.stream().map(l -> l.split(" ")[3]).distinct()).as(seen.toString()).hasSize(2);

    List<EveryCommand.Run> runs = EveryCommand.runs(ROOT, openb);
    Path first = dir.resolve(SURROUNDINGS.getFirst().name());
    for (int i = 0; i < runs.size(); i++) {
      EveryCommand.Run run = runs.get(i);
      String name = EveryCommand.fileName(i, run);
      assertThat(Files.readString(first.resolve(name + ".code")).strip()).as(name + " exit code; stderr: "
          + Files.readString(first.resolve(name + ".err"))).isEqualTo(Integer.toString(run.exitCode()));
      assertThat(Files.size(first.resolve(name + ".out")) + Files.size(first.resolve(name + ".err")))
          .as(name + " printed something").isPositive();
    }
    Map<String, byte[]> reference = files(first);
    assertThat(reference.keySet()).as("files the commands wrote").contains("lab/report.html",
        "simulate-spot/result.json", "simulate-spot/report.html", "simulate-mig/pods.csv", "sweep/sweep.html",
        "advise/l4.html");
    for (Surroundings s : SURROUNDINGS.subList(1, SURROUNDINGS.size())) {
      Map<String, byte[]> other = files(dir.resolve(s.name()));
      assertThat(other.keySet()).as(s.name() + ": the same files").isEqualTo(reference.keySet());
      for (var e : reference.entrySet()) {
        if (wallClock(e.getKey(), runs)) {
          continue;
        }
        byte[] theirs = other.get(e.getKey());
        if (!Arrays.equals(e.getValue(), theirs)) {
          fail(s.name() + " differs from " + SURROUNDINGS.getFirst().name() + " in " + e.getKey() + ": "
              + firstDifference(e.getValue(), theirs));
        }
      }
    }
  }

  /** The stderr of a run that reports its elapsed wall time there by design. */
  static boolean wallClock(String file, List<EveryCommand.Run> runs) {
    for (int i = 0; i < runs.size(); i++) {
      if (runs.get(i).wallClockOnStderr() && file.equals(EveryCommand.fileName(i, runs.get(i)) + ".err")) {
        return true;
      }
    }
    return false;
  }

  static Map<String, byte[]> files(Path dir) throws IOException {
    Map<String, byte[]> out = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        out.put(dir.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
      }
    }
    return out;
  }

  static String firstDifference(byte[] a, byte[] b) {
    List<String> x = new String(a, StandardCharsets.UTF_8).lines().toList();
    List<String> y = new String(b, StandardCharsets.UTF_8).lines().toList();
    for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
      if (!x.get(i).equals(y.get(i))) {
        return "line " + (i + 1) + ":\n  " + x.get(i) + "\n  " + y.get(i);
      }
    }
    return x.size() + " lines against " + y.size() + " (or different line endings)";
  }
}
