package io.gpufleet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the real {@code ./gpufleet} script in a scratch copy of the repository layout, with a stand-in
 * {@code mvn} that counts builds and leaves an existing jar untouched (as Maven does when nothing in
 * it changed) and a stand-in JDK, so the test measures only the launcher's rebuild decision.
 */
class LauncherTest {

  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
  private static final Instant LONG_AGO = Instant.parse("2020-01-01T00:00:00Z");

  @TempDir Path tmp;
  private Path root;
  private Path builds;
  private Path fakeBin;
  private Path fakeJdk;
  private boolean aot;

  @BeforeEach
  void layOut() throws IOException {
    root = Files.createDirectories(tmp.resolve("repo"));
    Files.createDirectories(root.resolve("scripts"));
    Files.copy(REPO.resolve("gpufleet"), root.resolve("gpufleet"));
    Files.copy(REPO.resolve("scripts/jdk.sh"), root.resolve("scripts/jdk.sh"));
    write(root.resolve("pom.xml"), "<project/>");
    write(root.resolve("model/src/main/java/io/x/Real.java"), "class Real {}");

    builds = tmp.resolve("builds.log");
    fakeBin = Files.createDirectories(tmp.resolve("bin"));
    // First build writes the jar; later ones leave it as it is, like Maven with unchanged classes.
    // With the file edit-during-build present, a source is saved while the build runs.
    executable(fakeBin.resolve("mvn"), """
        #!/usr/bin/env bash
        echo build >> "%s"
        mkdir -p cli/target
        [ -f cli/target/gpufleet.jar ] || echo jar > cli/target/gpufleet.jar
        if [ -f "%s" ]; then sleep 1; touch model/src/main/java/io/x/Real.java; rm "%s"; fi
        """.formatted(builds, editDuringBuild(), editDuringBuild()));
    fakeJdk = Files.createDirectories(tmp.resolve("jdk"));
    write(fakeJdk.resolve("release"), "JAVA_VERSION=\"25\"\n");
    executable(fakeJdk.resolve("bin/java"), "#!/usr/bin/env bash\necho ran\n");
  }

  @Test
  void buildOutputsNeverMakeTheJarStaleButSourcesDo() throws Exception {
    launch();
    assertEquals(1, buildCount(), "the first call builds: there is no jar");
    launch();
    assertEquals(1, buildCount(), "nothing changed since the build");

    // A source edited after the jar was written; the rebuild leaves the jar's bytes and time alone.
    ageEverything();
    editedAfterTheJar(root.resolve("model/src/main/java/io/x/Real.java"));
    launch();
    assertEquals(2, buildCount(), "a source newer than the jar rebuilds");
    launch();
    assertEquals(2, buildCount(), "an unchanged jar from that rebuild is not stale afterwards");

    // What JMH's annotation processor leaves behind after scripts/bench: generated sources, newer.
    Path generated = root.resolve(
        "bench/target/generated-sources/annotations/io/x/jmh_generated/Real_jmhTest.java");
    write(generated, "class Real_jmhTest {}");
    write(root.resolve("cli/target/classes/Stray.java"), "class Stray {}");
    future(generated);
    future(root.resolve("cli/target/classes/Stray.java"));
    launch();
    assertEquals(2, buildCount(), "files under target/ are build outputs, not sources");

    future(root.resolve("model/src/main/java/io/x/Real.java"));
    launch();
    assertEquals(3, buildCount(), "touching a real source rebuilds");
  }

  @Test
  void aSourceSavedWhileTheBuildRunsRebuildsNextTime() throws Exception {
    Files.writeString(editDuringBuild(), "");
    launch();
    assertEquals(1, buildCount());
    launch();
    assertEquals(2, buildCount(), "the jar may predate that edit, so the next call rebuilds");
    launch();
    assertEquals(2, buildCount());
  }

  @Test
  void aNewerPomOrLabFileRebuilds() throws Exception {
    write(root.resolve("examples/lab/lab.yaml"), "steps: []");
    launch();
    ageEverything();
    editedAfterTheJar(root.resolve("examples/lab/lab.yaml"));
    launch();
    assertEquals(2, buildCount(), "the built-in lab is packed into the jar");
    ageEverything();
    editedAfterTheJar(root.resolve("pom.xml"));
    launch();
    assertEquals(3, buildCount(), "a newer pom.xml rebuilds");
  }

  @Test
  void aNewModulesSourceOrResourceRebuildsButDocsExamplesAndTestsDoNot() throws Exception {
    launch();
    write(root.resolve("docs/notes.md"), "notes");
    write(root.resolve("examples/scheduling/fleet.yaml"), "kind: Node");
    ageEverything();
    editedAfterTheJar(root.resolve("docs/notes.md"));
    editedAfterTheJar(root.resolve("examples/scheduling/fleet.yaml"));
    launch();
    assertEquals(1, buildCount(), "documents and examples outside the lab are not built into the jar");

    write(root.resolve("model/src/test/java/io/x/RealTest.java"), "class RealTest {}");
    ageEverything();
    editedAfterTheJar(root.resolve("model/src/test/java/io/x/RealTest.java"));
    launch();
    assertEquals(1, buildCount(), "tests are not in the jar");

    write(root.resolve("fresh/src/main/java/io/x/Fresh.java"), "class Fresh {}");
    ageEverything();
    editedAfterTheJar(root.resolve("fresh/src/main/java/io/x/Fresh.java"));
    launch();
    assertEquals(2, buildCount(), "a source in a module the last build did not have rebuilds");
    write(root.resolve("fresh/src/main/resources/catalogue.yaml"), "gpus: []");
    ageEverything();
    editedAfterTheJar(root.resolve("fresh/src/main/resources/catalogue.yaml"));
    launch();
    assertEquals(3, buildCount(), "so does a resource");
  }

  /**
   * The AOT cache: the first call runs plainly and then makes the cache in the background with the
   * training run; later calls use it; a rebuilt jar makes it stale; a failed creation never changes
   * the command's result; GPUFLEET_AOT=0 leaves it out.
   */
  @Test
  void anAotCacheIsMadeAfterTheFirstCallUsedAfterwardsAndRemadeWhenAJarChanges() throws Exception {
    aot = true;
    Path calls = tmp.resolve("java-calls.log");
    Path failCreation = tmp.resolve("fail-creation");
    recordingJava(calls, failCreation);
    write(root.resolve("cli/target/lib/dep.jar"), "dep");
    Path cache = root.resolve("cli/target/gpufleet.aot");

    Files.writeString(failCreation, "");
    launch();
    awaitNoLock();
    assertTrue(Files.notExists(cache), "a failed creation leaves no cache");
    Files.delete(failCreation);
    launch();
    awaitNoLock();
    assertEquals(1, Files.readAllLines(calls).stream().filter(l -> l.contains("-XX:AOTCacheOutput=")).count(),
        "a failed creation is not tried again while no jar changed");
    // A rebuild since the failure: the jars are newer than its marker.
    Files.setLastModifiedTime(root.resolve("cli/target/gpufleet.aot.failed"), FileTime.from(LONG_AGO));

    launch();
    awaitNoLock();
    assertTrue(Files.exists(cache), "the cache is made after a call that found none");
    List<String> lines = Files.readAllLines(calls);
    assertTrue(lines.stream().anyMatch(l -> l.contains("-XX:AOTCacheOutput=") && l.contains("io.gpufleet.cli.Training")),
        "made by the training run: " + lines);
    assertTrue(lines.stream().filter(l -> l.endsWith("--version")).noneMatch(l -> l.contains("-XX:AOTCache=")),
        "no cache is used before there is one");

    launch();
    assertTrue(lastCommand(calls).contains("-XX:AOTCache=" + cache), "a later call uses it");

    Files.setLastModifiedTime(root.resolve("cli/target/lib/dep.jar"), FileTime.from(Instant.now().plusSeconds(3600)));
    launch();
    awaitNoLock();
    assertTrue(!lastCommand(calls).contains("-XX:AOTCache="), "a jar newer than the cache makes it stale");

    ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("gpufleet").toString(), "--version");
    pb.environment().put("PATH", fakeBin + ":" + System.getenv("PATH"));
    pb.environment().put("JAVA_HOME", fakeJdk.toString());
    pb.environment().put("GPUFLEET_AOT", "0");
    Process p = pb.start();
    p.getInputStream().readAllBytes();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertTrue(!lastCommand(calls).contains("AOT"), "GPUFLEET_AOT=0 leaves the cache out");
  }

  /**
   * A command with training examples has a cache of its own, trained on its examples alone (the
   * JVM loads all of a cache's classes at start); other calls share the cache trained on all.
   */
  @Test
  void aCommandWithTrainingExamplesHasACacheOfItsOwn() throws Exception {
    aot = true;
    Path calls = tmp.resolve("java-calls.log");
    recordingJava(calls, tmp.resolve("no-failure"));
    Path scheduleCache = root.resolve("cli/target/gpufleet-schedule.aot");
    Path shared = root.resolve("cli/target/gpufleet.aot");

    launch("schedule", "-f", "x.yaml");
    awaitNoLock();
    assertTrue(Files.exists(scheduleCache), "schedule's cache is made after a schedule call");
    assertTrue(Files.notExists(shared), "and only that one");
    assertTrue(Files.readAllLines(calls).stream()
            .anyMatch(l -> l.contains("-XX:AOTCacheOutput=" + scheduleCache) && l.endsWith("io.gpufleet.cli.Training " + root + " schedule")),
        "trained on schedule's examples: " + Files.readAllLines(calls));

    launch("schedule", "-f", "x.yaml");
    assertTrue(lastCommand(calls, "x.yaml").contains("-XX:AOTCache=" + scheduleCache + " "), "a later schedule uses it");
    launch("--version");
    awaitNoLock();
    assertTrue(!lastCommand(calls, "--version").contains("-XX:AOTCache="), "another call does not use schedule's cache");
    assertTrue(Files.readAllLines(calls).stream()
            .anyMatch(l -> l.contains("-XX:AOTCacheOutput=" + shared) && l.endsWith("io.gpufleet.cli.Training " + root)),
        "it makes the shared one, trained on every command");
    launch("--version");
    assertTrue(lastCommand(calls, "--version").contains("-XX:AOTCache=" + shared + " "), "which a later call uses");
  }

  /** A stand-in java that logs its arguments and makes a cache when asked, unless {@code failCreation} exists. */
  private void recordingJava(Path calls, Path failCreation) throws IOException {
    executable(fakeJdk.resolve("bin/java"), """
        #!/usr/bin/env bash
        echo "$*" >> "%s"
        for a in "$@"; do
          case "$a" in
            -XX:AOTCacheOutput=*) [ -f "%s" ] && exit 1; echo cache > "${a#-XX:AOTCacheOutput=}" ;;
          esac
        done
        echo ran
        """.formatted(calls, failCreation));
  }

  /** The last call of the command itself (not the training run). */
  private static String lastCommand(Path calls) throws IOException {
    return lastCommand(calls, "--version");
  }

  /** The last call whose arguments end with {@code lastArg}. */
  private static String lastCommand(Path calls, String lastArg) throws IOException {
    List<String> lines = Files.readAllLines(calls);
    return lines.reversed().stream().filter(l -> l.endsWith(lastArg)).findFirst().orElse("");
  }

  /** Waits for the background maker to finish: it holds the lock while it runs. */
  private void awaitNoLock() throws InterruptedException {
    Path lock = root.resolve("cli/target/gpufleet.aot.lock");
    for (int i = 0; i < 600 && Files.exists(lock); i++) {
      Thread.sleep(50);
    }
    assertTrue(Files.notExists(lock), "the cache maker finished");
  }

  private void launch() throws Exception {
    launch("--version");
  }

  private void launch(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", root.resolve("gpufleet").toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("PATH", fakeBin + ":" + System.getenv("PATH"));
    pb.environment().put("JAVA_HOME", fakeJdk.toString());
    // The build-decision tests leave the AOT cache out: its maker would still run when they end.
    pb.environment().put("GPUFLEET_AOT", aot ? "1" : "0");
    Process p = pb.start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the launcher finished");
    assertEquals(0, p.exitValue(), output);
    assertTrue(output.endsWith("ran\n"), "the launcher ran java after deciding: " + output);
  }

  private Path editDuringBuild() {
    return tmp.resolve("edit-during-build");
  }

  private int buildCount() throws IOException {
    return Files.exists(builds) ? Files.readAllLines(builds).size() : 0;
  }

  /** Dates every file, the jar included, long ago, so that only what a step changes is newer. */
  private void ageEverything() throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        Files.setLastModifiedTime(f, FileTime.from(LONG_AGO));
      }
    }
  }

  private static void editedAfterTheJar(Path file) throws IOException {
    Files.setLastModifiedTime(file, FileTime.from(LONG_AGO.plusSeconds(60)));
  }

  /** An hour ahead of now: newer than any jar the launcher can have stamped during this test. */
  private static void future(Path file) throws IOException {
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(3600)));
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  private static void executable(Path file, String text) throws IOException {
    write(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
