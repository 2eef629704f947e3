package io.gpufleet.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Compares a rendering with {@code src/test/resources/golden/<name>}. Run with
 * {@code -Dgolden.update=true} to rewrite the files after a deliberate change, then review the diff.
 */
public final class Golden {
  private Golden() {}

  private static final Path DIR = Path.of("src/test/resources/golden");

  public static void check(String name, String actual) {
    Path file = DIR.resolve(name);
    try {
      if (Boolean.getBoolean("golden.update")) {
        Files.createDirectories(DIR);
        Files.writeString(file, actual, StandardCharsets.UTF_8);
      }
      assertThat(Files.exists(file)).as("golden file %s exists (run with -Dgolden.update=true)", file).isTrue();
      assertThat(actual).isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
