package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every file a command writes stays in its output directory, is never written through a link, and is all-or-none. */
class SafeOutputTest {

  private static final List<String> RESULTS = List.of("result.json", "timeseries.csv", "pods.csv", "report.html");

  private static Path scenario(Path dir, String name) throws IOException {
    Path s = dir.resolve("s.yaml");
    Files.writeString(s, "apiVersion: gpufleet.io/v1alpha1\nkind: Scenario\nmetadata: {name: \"" + name + "\"}\n"
        + "spec:\n  steps:\n  - title: t\n    actions:\n    - wait: 1m\n");
    return s;
  }

  private static List<String> namesIn(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private static void deleteTree(Path p) throws IOException {
    if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
      try (Stream<Path> s = Files.walk(p)) {
        for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(f);
        }
      }
    }
  }

  @Test
  void aScenarioNamedDotDotSlashWritesOnlyUnderOut(@TempDir Path dir) throws IOException {
    // The default --out is out/<scenario name> in the working directory; "../../x" must not climb out of it.
    Path escaped = Path.of("out", "..", "..", "x").normalize();
    Path inside = Path.of("out", ".._.._x");
    assertThat(escaped).doesNotExist();
    try {
      CliRun run = CliRun.of("simulate", scenario(dir, "../../x").toString(), "-q");
      assertThat(run.exitCode()).as(run.err()).isZero();
      assertThat(escaped).doesNotExist();
      for (String f : RESULTS) {
        assertThat(inside.resolve(f)).isRegularFile();
        assertThat(inside.resolve(f).toAbsolutePath().normalize()).startsWith(Path.of("out").toAbsolutePath());
      }
    } finally {
      deleteTree(inside);
    }
  }

  @Test
  void aNameOfOnlyDotsIsRefusedWithoutAnOutFolder(@TempDir Path dir) throws IOException {
    CliRun run = CliRun.of("simulate", scenario(dir, "..").toString(), "-q");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("the scenario name \"..\" cannot name an output folder; give --out DIR");
  }

  @Test
  void aReportThatIsALinkIsReplacedNeverWrittenThrough(@TempDir Path dir) throws IOException {
    Path victim = dir.resolve("victim.txt");
    Files.writeString(victim, "keep me");
    Path out = Files.createDirectory(dir.resolve("out"));
    Files.createSymbolicLink(out.resolve("report.html"), victim);
    CliRun run = CliRun.of("simulate", scenario(dir, "linked").toString(), "--out", out.toString(), "-q");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(Files.readString(victim)).isEqualTo("keep me");
    assertThat(Files.isSymbolicLink(out.resolve("report.html"))).isFalse();
    assertThat(Files.readString(out.resolve("report.html"))).contains("<html");
    // Results are readable by others, as a plainly written file is, not private like a temporary file.
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out.resolve("report.html"))))
        .startsWith("rw-r");
  }

  @Test
  void aReadOnlyOutLeavesNoFilesAndSaysWhy(@TempDir Path dir) throws IOException {
    Path out = Files.createDirectory(dir.resolve("out"));
    Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("r-xr-xr-x"));
    try {
      assumeThat(Files.isWritable(out)).as("permissions bind this user (not root)").isFalse();
      CliRun run = CliRun.of("simulate", scenario(dir, "ro").toString(), "--out", out.toString(), "-q");
      assertThat(run.exitCode()).isEqualTo(2);
      assertThat(run.err()).contains("cannot write " + out.resolve("result.json") + ": permission denied")
          .doesNotContain("Exception");
      assertThat(namesIn(out)).isEmpty();
    } finally {
      Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  @Test
  void aFailedRunLeavesNoPartialResults(@TempDir Path dir) throws IOException {
    // The last file cannot be placed (a folder is in the way): none of the others may be left behind.
    Path out = Files.createDirectory(dir.resolve("out"));
    Files.createDirectories(out.resolve("report.html").resolve("inside"));
    CliRun run = CliRun.of("simulate", scenario(dir, "partial").toString(), "--out", out.toString(), "-q");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("cannot write " + out.resolve("report.html") + ": it is a directory")
        .doesNotContain("Exception");
    assertThat(namesIn(out)).containsExactly("report.html");
  }

  @Test
  void anOutUnderAFileSaysWhyInPlainWords(@TempDir Path dir) throws IOException {
    Path file = Files.writeString(dir.resolve("afile"), "x");
    CliRun run = CliRun.of("simulate", scenario(dir, "under").toString(), "--out", file.resolve("sub").toString(), "-q");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("cannot create " + file.resolve("sub") + ": not a directory")
        .doesNotContain("Exception");
  }

  @Test
  void adviseOutUnderAFileSaysWhy(@TempDir Path dir) throws IOException {
    Path file = Files.writeString(dir.resolve("afile"), "x");
    CliRun run = CliRun.of("advise", "-f", Path.of("..", "examples", "advise", "a10g-inference.yaml").toString(),
        "--out", file.resolve("advice.txt").toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("cannot write into " + file + ": it is not a directory").doesNotContain("Exception");
  }

  @Test
  void labWritesNothingUnlessAskedForAReport() throws IOException {
    Path cwd = Path.of("").toAbsolutePath();
    List<String> before = namesIn(cwd);
    CliRun run = CliRun.of("lab", "--step", "3.1");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).doesNotContainPattern("\\n  report +");
    assertThat(namesIn(cwd)).isEqualTo(before);
  }

  @Test
  void namesDerivedFromInputBecomeOnePlainSegment() {
    assertThat(OutputFiles.safeName("../../x", "n")).isEqualTo(".._.._x");
    assertThat(OutputFiles.safeName("a/b\\c d", "n")).isEqualTo("a_b_c_d");
    assertThat(OutputFiles.safeName("inference-spot.v2", "n")).isEqualTo("inference-spot.v2");
  }
}
