package io.gpufleet.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every main package says what lives there: a {@code package-info.java} with a javadoc comment.
 * A javadoc-only package-info compiles to no class file, so the rule reads the source trees; the
 * compiled classes keep it honest, since every package that holds classes must be found there.
 */
class PackageDocumentationTest {

  private static final Pattern JAVADOC = Pattern.compile("/\\*\\*\\s*\\S[\\s\\S]*?\\*/\\s*package\\s");

  /** Source roots of every module: {@code <module>/src/main/java} beside this module. */
  private static List<Path> roots;
  private static Path repo;

  @BeforeAll
  static void findSourceRoots() throws IOException {
    repo = Path.of("").toAbsolutePath().getParent();
    try (Stream<Path> modules = Files.list(repo)) {
      roots = modules.map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).sorted().toList();
    }
  }

  @Test
  void everyMainPackageHasADocumentedPackageInfo() throws IOException {
    List<String> missing = new ArrayList<>();
    for (Path root : roots) {
      for (Path dir : packageDirs(root)) {
        Path info = dir.resolve("package-info.java");
        boolean hasClasses = javaFiles(dir).stream().anyMatch(f -> !f.getFileName().toString().equals("package-info.java"));
        if (!hasClasses) {
          missing.add(repo.relativize(dir) + " (package-info.java in a package with no classes)");
        } else if (!Files.exists(info)) {
          missing.add(repo.relativize(dir) + " (no package-info.java)");
        } else if (!JAVADOC.matcher(Files.readString(info)).find()) {
          missing.add(repo.relativize(dir) + " (package-info.java without a javadoc comment before its package line)");
        }
      }
    }
    assertThat(missing).as("main packages that do not say what lives there").isEmpty();
  }

  /** The scan above proves nothing if it misses a module: every compiled package must be found by it. */
  @Test
  void theScanSeesEveryCompiledPackage() throws IOException {
    Set<String> scanned = new TreeSet<>();
    for (Path root : roots) {
      for (Path dir : packageDirs(root)) {
        scanned.add(root.relativize(dir).toString().replace(dir.getFileSystem().getSeparator(), "."));
      }
    }
    Set<String> compiled = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.gpufleet")
        .stream()
        .map(JavaClass::getPackageName)
        .collect(Collectors.toCollection(TreeSet::new));
    assertThat(compiled).as("compiled packages").contains("io.gpufleet.model.resource", "io.gpufleet.cli");
    assertThat(scanned).as("packages found in the source trees").containsAll(compiled);
  }

  private static List<Path> packageDirs(Path root) throws IOException {
    try (Stream<Path> dirs = Files.walk(root)) {
      return dirs.filter(Files::isDirectory).filter(d -> !javaFiles(d).isEmpty()).sorted().toList();
    }
  }

  private static List<Path> javaFiles(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".java")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
