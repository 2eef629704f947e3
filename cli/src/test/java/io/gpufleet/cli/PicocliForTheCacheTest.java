package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.classfile.Attributes;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.instruction.BranchInstruction;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * picocli's classes reach the run time (and these tests) as the build upgraded them
 * (src/build/UpgradeClassFiles.java): from this module's class folder, as class-file version 52
 * whose stack maps the JVM's split verifier accepts, which is what lets the AOT cache hold them.
 */
class PicocliForTheCacheTest {

  private static Path classFolder() throws Exception {
    return Path.of(CommandLine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  private static List<Path> picocliClasses() throws Exception {
    try (Stream<Path> files = Files.walk(classFolder().resolve("picocli"))) {
      return files.filter(p -> p.toString().endsWith(".class")).sorted().toList();
    }
  }

  @Test
  void picocliIsLoadedFromTheModulesClassFolderNotFromItsJar() throws Exception {
    assertThat(Files.isDirectory(classFolder())).as("%s is a folder", classFolder()).isTrue();
    assertThat(classFolder()).isEqualTo(
        Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
    assertThat(picocliClasses()).hasSizeGreaterThan(150);
  }

  @Test
  void everyClassIsVersion52AndEveryMethodThatBranchesCarriesStackMaps() throws Exception {
    int branching = 0;
    for (Path file : picocliClasses()) {
      ClassModel model = ClassFile.of().parse(file);
      assertThat(model.majorVersion()).as("%s", file.getFileName()).isEqualTo(ClassFile.JAVA_8_VERSION);
      for (MethodModel m : model.methods()) {
        if (m.code().isPresent() && m.code().get().elementStream().anyMatch(e -> e instanceof BranchInstruction)) {
          branching++;
          assertThat(m.code().get().findAttribute(Attributes.stackMapTable()))
              .as("%s.%s has a StackMapTable", model.thisClass().asInternalName(), m.methodName())
              .isPresent();
        }
      }
    }
    assertThat(branching).as("methods with branches checked").isGreaterThan(500);
  }

  /** Each class loaded and initialised in a loader of its own, so that the JVM verifies all of them. */
  @Test
  void theVerifierAcceptsEveryClass() throws Exception {
    try (URLClassLoader fresh = new URLClassLoader(new URL[] {classFolder().toUri().toURL()},
        ClassLoader.getPlatformClassLoader())) {
      for (Path file : picocliClasses()) {
        String name = classFolder().relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
        Class<?> c = Class.forName(name, true, fresh);
        assertThat(c.getClassLoader()).isSameAs(fresh);
      }
    }
  }

  @Test
  void aCallWithThemStillParsesAndRendersHelp() throws IOException {
    CliRun help = CliRun.of("schedule", "--help");
    assertThat(help.exitCode()).isZero();
    assertThat(help.out()).startsWith("Usage: gpufleet schedule");
  }
}
